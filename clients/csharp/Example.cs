// The README's first query through the C# client: a path across the demo arena; and a kinodynamic query
// sent as JSON text (PathAsync(string)), read through the answer's timed members.
//
//   mono build/csharp/arcpath-example.exe [BASE_URL [MAP]]     (defaults: http://127.0.0.1:8080, arena)
//   mono build/csharp/arcpath-example.exe BASE_URL MAP kinodynamic [MAX_SPEED]
//   mono build/csharp/arcpath-example.exe BASE_URL MAP start X
//
// The first prints "status", "length", "grid_cost", "segments" and "clear" lines and exits 0. The second
// sends the body of the C and JavaScript examples' kinodynamic mode (the tank from (5.5, 5.5) facing west
// to (20.5, 12.5), samples every 0.5 s, unit.max_speed MAX_SPEED when given) and prints their lines:
// "status", "length", "duration_s", "segments", "turns", "timed", "samples", "probe", "clear". The third
// sends the first's typed query from (X, 3.5) and prints "start " and the answer's first waypoint's x with
// 17 significant digits: the start must arrive as the very double given.
// On an error both print "error HTTP CODE: MESSAGE (field: FIELD)" (and " map_version N" when the error
// names one: a 422) and exit 1. tests/clients/run.sh checks
// them all.
using System;
using System.Globalization;
using System.Threading.Tasks;
using Arcpath;

public static class Example
{
    public static int Main(string[] args)
    {
        int code = Run(args).GetAwaiter().GetResult();
        // Leave through Environment.Exit, not by returning: Debian 12's Mono (6.8) sometimes waits 45-50 s at
        // shutdown after HttpClient's async work (2 of 30 runs; none of 160 this way); tests/clients/run.sh
        // runs the example 14 times, so CI lost about a minute a run to it.
        Console.Out.Flush();
        Environment.Exit(code);
        return code;
    }

    private static async Task<int> Run(string[] args)
    {
        string baseUrl = args.Length > 0 ? args[0] : "http://127.0.0.1:8080";
        string map = args.Length > 1 ? args[1] : "arena";
        var inv = CultureInfo.InvariantCulture;
        using (var client = new ArcpathClient(baseUrl, TimeSpan.FromSeconds(10)))
        {
            try
            {
                if (args.Length > 2 && args[2] == "kinodynamic")
                {
                    string maxSpeed = args.Length > 3 ? ",\"max_speed\":" + args[3] : "";
                    var kino = await client.PathAsync(
                        "{\"map\":\"" + map + "\",\"start\":{\"x\":5.5,\"y\":5.5,\"heading\":3.14159,\"speed\":0}," +
                        "\"goal\":{\"x\":20.5,\"y\":12.5,\"speed\":0},\"unit\":{\"kind\":\"tank\",\"reverse\":false" +
                        maxSpeed + "},\"goal_tolerance\":{\"position\":0.5,\"speed\":0.5}," +
                        "\"search\":{\"algorithm\":\"kinodynamic\",\"max_expansions\":100000},\"samples\":{\"dt\":0.5}}");
                    int turns = 0, timed = 0;
                    foreach (var s in kino.Segments ?? new Segment[0])
                    {
                        if (s.Type == "turn") turns++;
                        if (s.VStart.HasValue && s.VEnd.HasValue && s.TStart.HasValue && s.Duration.HasValue) timed++;
                    }
                    Console.WriteLine("status " + kino.Status);
                    Console.WriteLine("length " + kino.Length.GetValueOrDefault(double.NaN).ToString("R", inv));
                    Console.WriteLine("duration_s " + kino.DurationS.GetValueOrDefault(double.NaN).ToString("R", inv));
                    Console.WriteLine("segments " + (kino.Segments == null ? 0 : kino.Segments.Length));
                    Console.WriteLine("turns " + turns);
                    Console.WriteLine("timed " + timed);
                    Console.WriteLine("samples " + (kino.Samples == null ? 0 : kino.Samples.Length));
                    Console.WriteLine("probe " + (kino.Segments == null ? -1 : kino.Probe == true ? 1 : 0));
                    Console.WriteLine("clear " + (kino.Clear == true ? "true" : "false"));
                    return 0;
                }
                if (args.Length > 3 && args[2] == "start")
                {
                    var from = await client.PathAsync(new PathRequest
                    {
                        Map = map,
                        Start = new Pose(double.Parse(args[3], inv), 3.5),
                        Goal = new Pose(90.5, 88.5),
                    });
                    Console.WriteLine("start " + from.Waypoints[0][0].ToString("G17", inv));
                    return 0;
                }
                var answer = await client.PathAsync(new PathRequest
                {
                    Map = map,
                    Start = new Pose(3.5, 3.5),
                    Goal = new Pose(90.5, 88.5),
                });
                Console.WriteLine("status " + answer.Status);
                Console.WriteLine("length " + answer.Length.GetValueOrDefault(double.NaN).ToString("R", inv));
                Console.WriteLine("grid_cost " + answer.GridCost.GetValueOrDefault(double.NaN).ToString("R", inv));
                Console.WriteLine("segments " + (answer.Segments == null ? 0 : answer.Segments.Length));
                Console.WriteLine("clear " + (answer.Clear == true ? "true" : "false"));
                return 0;
            }
            catch (ArcpathException e)
            {
                Console.WriteLine("error " + e.HttpStatus + " " + e.Code + ": " + e.Message + " (field: " + e.Field + ")" +
                                  (e.MapVersion > 0 ? " map_version " + e.MapVersion : ""));
                return 1;
            }
        }
    }
}
