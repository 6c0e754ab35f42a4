// The README's first query through the C# client: a path across the demo arena.
//
//   mono build/csharp/arcpath-example.exe [BASE_URL [MAP]]     (defaults: http://127.0.0.1:8080, arena)
//
// Prints "status", "length", "grid_cost", "segments" and "clear" lines and exits 0; on an error prints
// "error HTTP CODE: MESSAGE (field: FIELD)" and exits 1. tests/clients/run.sh checks both.
using System;
using System.Globalization;
using System.Threading.Tasks;
using Arcpath;

public static class Example
{
    public static int Main(string[] args)
    {
        return Run(args).GetAwaiter().GetResult();
    }

    private static async Task<int> Run(string[] args)
    {
        string baseUrl = args.Length > 0 ? args[0] : "http://127.0.0.1:8080";
        string map = args.Length > 1 ? args[1] : "arena";
        using (var client = new ArcpathClient(baseUrl, TimeSpan.FromSeconds(10)))
        {
            try
            {
                var answer = await client.PathAsync(new PathRequest
                {
                    Map = map,
                    Start = new Pose(3.5, 3.5),
                    Goal = new Pose(90.5, 88.5),
                });
                var inv = CultureInfo.InvariantCulture;
                Console.WriteLine("status " + answer.Status);
                Console.WriteLine("length " + answer.Length.GetValueOrDefault(double.NaN).ToString("R", inv));
                Console.WriteLine("grid_cost " + answer.GridCost.GetValueOrDefault(double.NaN).ToString("R", inv));
                Console.WriteLine("segments " + (answer.Segments == null ? 0 : answer.Segments.Length));
                Console.WriteLine("clear " + (answer.Clear == true ? "true" : "false"));
                return 0;
            }
            catch (ArcpathException e)
            {
                Console.WriteLine("error " + e.HttpStatus + " " + e.Code + ": " + e.Message + " (field: " + e.Field + ")");
                return 1;
            }
        }
    }
}
