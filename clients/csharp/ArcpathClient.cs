// A small client for arcpath's POST /v1/path: HttpClient (async) and DataContractJsonSerializer (answers;
// typed requests are written here, doubles with 17 significant digits), both in modern .NET and in Mono; no
// packages. See README.md beside this file.
//
// Errors throw ArcpathException {HttpStatus, Code, Message, Field, Attempts}: the wire error of an HTTP
// error status (README "Errors"), or Code "transport" (no answer, HttpStatus 0) or "bad_answer" (a body
// that is not arcpath's JSON). A 503 with Retry-After (the server's "overloaded") is retried after the
// advertised delay: at most MaxAttempts requests per call, at most MaxRetryWait per wait.
// Thread safety: one ArcpathClient may serve concurrent calls (HttpClient does); set the properties first.
using System;
using System.Globalization;
using System.IO;
using System.Net.Http;
using System.Runtime.Serialization;
using System.Runtime.Serialization.Json;
using System.Text;
using System.Threading.Tasks;

namespace Arcpath
{
    /// <summary>x = column, y = row (tiles); Heading in radians from +x toward +y, sent when set.</summary>
    [DataContract]
    public sealed class Pose
    {
        [DataMember(Name = "x", Order = 0)] public double X;
        [DataMember(Name = "y", Order = 1)] public double Y;
        [DataMember(Name = "heading", Order = 2, EmitDefaultValue = false)] public double? Heading;
        public Pose() { }
        public Pose(double x, double y, double? heading = null) { X = x; Y = y; Heading = heading; }
    }

    /// <summary>The unit: a configured kind, disc radius or square size, the terrains it may enter
    /// (ground, swamp, water, trees), turning radius in tiles; members left null take the kind's, else the
    /// server's defaults.</summary>
    [DataContract]
    public sealed class Unit
    {
        [DataMember(Name = "kind", EmitDefaultValue = false)] public string Kind;
        [DataMember(Name = "radius", EmitDefaultValue = false)] public double? Radius;
        [DataMember(Name = "size", EmitDefaultValue = false)] public int? Size;
        [DataMember(Name = "capability", EmitDefaultValue = false)] public string[] Capability;
        [DataMember(Name = "turning_radius", EmitDefaultValue = false)] public double? TurningRadius;
        [DataMember(Name = "reverse", EmitDefaultValue = false)] public bool? Reverse;
    }

    /// <summary>Search options; null members take the server's defaults.</summary>
    [DataContract]
    public sealed class Search
    {
        [DataMember(Name = "algorithm", EmitDefaultValue = false)] public string Algorithm;
        [DataMember(Name = "connectivity", EmitDefaultValue = false)] public int? Connectivity;
        [DataMember(Name = "smoothing", EmitDefaultValue = false)] public string Smoothing;
    }

    /// <summary>A POST /v1/path body (README "POST /v1/path").</summary>
    [DataContract]
    public sealed class PathRequest
    {
        [DataMember(Name = "map", Order = 0)] public string Map;
        [DataMember(Name = "start", Order = 1)] public Pose Start;
        [DataMember(Name = "goal", Order = 2)] public Pose Goal;
        [DataMember(Name = "unit", Order = 3, EmitDefaultValue = false)] public Unit Unit;
        [DataMember(Name = "search", Order = 4, EmitDefaultValue = false)] public Search Search;
        [DataMember(Name = "deadline_ms", Order = 5, EmitDefaultValue = false)] public int? DeadlineMs;
    }

    /// <summary>A line, an arc or (kinodynamic, unit.max_turn_rate) a turn on the spot; the members of the
    /// other types are null. Points are [x, y]. Timed answers (kinodynamic, or vehicle limits named) add the
    /// speeds (m/s) and times (s) along the segment.</summary>
    [DataContract]
    public sealed class Segment
    {
        [DataMember(Name = "type")] public string Type;
        [DataMember(Name = "start")] public double[] Start;
        [DataMember(Name = "end")] public double[] End;
        [DataMember(Name = "length")] public double Length;
        [DataMember(Name = "heading")] public double? Heading;
        [DataMember(Name = "center")] public double[] Center;
        [DataMember(Name = "radius")] public double? Radius;
        [DataMember(Name = "start_heading")] public double? StartHeading;
        [DataMember(Name = "sweep")] public double? Sweep;
        [DataMember(Name = "reverse")] public bool? Reverse;
        [DataMember(Name = "v_start")] public double? VStart;
        [DataMember(Name = "v_end")] public double? VEnd;
        [DataMember(Name = "t_start")] public double? TStart;
        [DataMember(Name = "duration")] public double? Duration;
    }

    /// <summary>A pose of samples.step (D: tiles along the path) or samples.dt (also T: seconds, V: m/s).</summary>
    [DataContract]
    public sealed class Sample
    {
        [DataMember(Name = "d")] public double D;
        [DataMember(Name = "x")] public double X;
        [DataMember(Name = "y")] public double Y;
        [DataMember(Name = "heading")] public double Heading;
        [DataMember(Name = "t")] public double? T;
        [DataMember(Name = "v")] public double? V;
    }

    [DataContract]
    public sealed class Stats
    {
        [DataMember(Name = "expanded")] public long Expanded;
        [DataMember(Name = "lane")] public string Lane;
        [DataMember(Name = "queue_us")] public long? QueueUs;
        [DataMember(Name = "search_us")] public long? SearchUs;
    }

    /// <summary>A 200 answer: Status "ok", "no_path" (with Reason) or "timeout"; figures are null unless ok.</summary>
    [DataContract]
    public sealed class PathAnswer
    {
        [DataMember(Name = "status")] public string Status;
        [DataMember(Name = "map")] public string Map;
        [DataMember(Name = "map_version")] public long? MapVersion;
        [DataMember(Name = "reason")] public string Reason;
        [DataMember(Name = "grid_cost")] public double? GridCost;
        [DataMember(Name = "length")] public double? Length;
        [DataMember(Name = "clear")] public bool? Clear;
        [DataMember(Name = "waypoints")] public double[][] Waypoints;
        [DataMember(Name = "segments")] public Segment[] Segments;
        [DataMember(Name = "samples")] public Sample[] Samples;
        /// <summary>Timed answers: the trajectory's duration, seconds.</summary>
        [DataMember(Name = "duration_s")] public double? DurationS;
        /// <summary>Kinodynamic: true when the answer is the probing search's path.</summary>
        [DataMember(Name = "probe")] public bool? Probe;
        /// <summary>Kinodynamic: true when a cap stopped A* (the fastest path found, not proven the fastest).</summary>
        [DataMember(Name = "capped")] public bool? Capped;
        [DataMember(Name = "stats")] public Stats Stats;
    }

    [DataContract]
    internal sealed class WireError
    {
        [DataMember(Name = "code")] public string Code;
        [DataMember(Name = "message")] public string Message;
        [DataMember(Name = "field")] public string Field;
        [DataMember(Name = "map_version")] public long? MapVersion;
    }

    [DataContract]
    internal sealed class ErrorBody
    {
        [DataMember(Name = "error")] public WireError Error;
    }

    /// <summary>An API or transport error; Code is the stable wire code ("unknown_map", "invalid_request", ...).</summary>
    public sealed class ArcpathException : Exception
    {
        public int HttpStatus { get; private set; }
        public string Code { get; private set; }
        public string Field { get; private set; }
        public int Attempts { get; private set; }
        /// <summary>A 422's map_version (out_of_bounds, start_blocked, goal_blocked: the map version that
        /// refused it); 0 when the error names none.</summary>
        public long MapVersion { get; private set; }

        public ArcpathException(int httpStatus, string code, string message, string field, int attempts,
                                long mapVersion = 0)
            : base(message)
        {
            HttpStatus = httpStatus; Code = code; Field = field ?? ""; Attempts = attempts; MapVersion = mapVersion;
        }
    }

    /// <summary>Client for the server at a base URL ("http://127.0.0.1:8080"). Dispose it when done.</summary>
    public sealed class ArcpathClient : IDisposable
    {
        private readonly HttpClient http;
        private readonly Uri pathUri;

        /// <summary>Requests per call, 1 + the 503 retries (default 3, clamped to 1 … 10).</summary>
        public int MaxAttempts { get; set; }
        /// <summary>The longest wait before a retry (default 10 s; the server asks for 1 s).</summary>
        public TimeSpan MaxRetryWait { get; set; }

        public ArcpathClient(string baseUrl, TimeSpan timeout)
        {
            if (string.IsNullOrEmpty(baseUrl)) throw new ArgumentException("baseUrl must not be empty");
            pathUri = new Uri(baseUrl.TrimEnd('/') + "/v1/path");
            http = new HttpClient();
            http.Timeout = timeout;
            MaxAttempts = 3;
            MaxRetryWait = TimeSpan.FromSeconds(10);
        }

        /// <summary>The main query: map id, start, goal and (optional) unit and search options.</summary>
        public Task<PathAnswer> PathAsync(PathRequest request)
        {
            return PathAsync(ToJson(request));
        }

        /// <summary>POST a complete /v1/path body given as JSON text; returns the parsed 200 answer.</summary>
        public async Task<PathAnswer> PathAsync(string jsonRequest)
        {
            int attempts = Math.Min(Math.Max(MaxAttempts, 1), 10);
            for (int attempt = 1; ; attempt++)
            {
                int status;
                string body;
                TimeSpan? retryAfter = null;
                // (an infinite Timeout, System.Threading.Timeout.InfiniteTimeSpan, is negative: no deadline)
                var deadline = http.Timeout < TimeSpan.Zero ? DateTime.MaxValue : DateTime.UtcNow + http.Timeout;
                try
                {
                    using (var content = new StringContent(jsonRequest, Encoding.UTF8, "application/json"))
                    using (var req = new HttpRequestMessage(HttpMethod.Post, pathUri) { Content = content })
                    using (var res = await http.SendAsync(req, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false))
                    {
                        status = (int)res.StatusCode;
                        body = await ReadCapped(res.Content, deadline).ConfigureAwait(false);
                        if (res.Headers.RetryAfter != null) retryAfter = res.Headers.RetryAfter.Delta;
                    }
                }
                catch (AnswerTooLarge)
                {
                    // (HttpStatus 0, as the C client's: the answer was not taken)
                    throw new ArcpathException(0, "bad_answer", "the answer is larger than the client's 64 MiB cap", "", attempt);
                }
                catch (HttpRequestException e)
                {
                    throw new ArcpathException(0, "transport", Innermost(e).Message, "", attempt);
                }
                catch (Exception e) when (e is OperationCanceledException || e is TimeoutException)
                {
                    throw new ArcpathException(0, "transport", "the request timed out", "", attempt);
                }
                catch (Exception e) when (e is IOException || e is ObjectDisposedException)
                {
                    throw new ArcpathException(0, "transport", Innermost(e).Message, "", attempt);
                }
                if (status == 200)
                {
                    var answer = FromJson<PathAnswer>(body);
                    if (answer == null || answer.Status == null)
                        throw new ArcpathException(200, "bad_answer", "the 200 answer is not a JSON object with a status", "", attempt);
                    return answer;
                }
                var err = FromJson<ErrorBody>(body);
                var error = err != null && err.Error != null && err.Error.Code != null
                    ? new ArcpathException(status, err.Error.Code, err.Error.Message ?? "", err.Error.Field, attempt,
                                           err.Error.MapVersion ?? 0)
                    : new ArcpathException(status, "bad_answer", "HTTP " + status + " without an arcpath error body", "", attempt);
                if (status != 503 || retryAfter == null || attempt >= attempts) throw error;
                var wait = retryAfter.Value < MaxRetryWait ? retryAfter.Value : MaxRetryWait;
                if (wait > TimeSpan.Zero) await Task.Delay(wait).ConfigureAwait(false);
            }
        }

        public void Dispose()
        {
            http.Dispose();
        }

        /// <summary>Largest answer body read (the server's max_answer_bytes defaults to 32 MiB), as in the C
        /// client.</summary>
        public const int MaxAnswerBytes = 64 << 20;

        private sealed class AnswerTooLarge : Exception
        {
        }

        // The body as text (UTF-8, as ReadAsStringAsync read arcpath's answers), read by `deadline` (the
        // request's Timeout from its start: ResponseHeadersRead leaves the body out of the HttpClient's own);
        // past MaxAnswerBytes, declared or sent, AnswerTooLarge and the rest not read, so a stray server cannot
        // fill the memory. The stream is closed at the deadline (a read that ignores its token ends too):
        // TimeoutException; a body shorter than its Content-Length: IOException.
        private static async Task<string> ReadCapped(HttpContent content, DateTime deadline)
        {
            long? declared = content.Headers.ContentLength;
            if (declared.HasValue && declared.Value > MaxAnswerBytes) throw new AnswerTooLarge();
            var left = deadline == DateTime.MaxValue ? TimeSpan.MaxValue : deadline - DateTime.UtcNow;
            if (left <= TimeSpan.Zero) throw new TimeoutException();
            using (var cts = new System.Threading.CancellationTokenSource())
            using (var stream = await content.ReadAsStreamAsync().ConfigureAwait(false))
            using (cts.Token.Register(() => stream.Dispose()))
            using (var buf = new MemoryStream())
            {
                if (left.TotalMilliseconds < int.MaxValue) cts.CancelAfter((int)Math.Ceiling(left.TotalMilliseconds));
                var chunk = new byte[65536];
                try
                {
                    int n;
                    while ((n = await stream.ReadAsync(chunk, 0, chunk.Length, cts.Token).ConfigureAwait(false)) > 0)
                    {
                        if (buf.Length + n > MaxAnswerBytes) throw new AnswerTooLarge();
                        buf.Write(chunk, 0, n);
                    }
                }
                catch (Exception e) when (cts.IsCancellationRequested && !(e is AnswerTooLarge))
                {
                    throw new TimeoutException();
                }
                if (declared.HasValue && buf.Length != declared.Value)
                    throw new IOException("the connection closed " + buf.Length + " bytes into a " + declared.Value + "-byte answer");
                return Encoding.UTF8.GetString(buf.GetBuffer(), 0, (int)buf.Length);
            }
        }

        private static Exception Innermost(Exception e)
        {
            while (e.InnerException != null) e = e.InnerException;
            return e;
        }

        // The request body, written here rather than by DataContractJsonSerializer: Mono's writes a double
        // with the "R" format, which there does not always round-trip (16.230544366138002 went out as
        // 16.230544366138, the next double down: a helper), so the server planned from another point.
        private static string ToJson(PathRequest r)
        {
            if (r == null) throw new ArgumentNullException("request");
            var b = new StringBuilder("{\"map\":");
            Str(b, r.Map);
            b.Append(",\"start\":"); PoseJson(b, r.Start, "start");
            b.Append(",\"goal\":"); PoseJson(b, r.Goal, "goal");
            if (r.Unit != null)
            {
                var u = r.Unit;
                var o = new Members(b, "unit");
                if (u.Kind != null) { o.Key("kind"); Str(b, u.Kind); }
                if (u.Radius.HasValue) { o.Key("radius"); Num(b, u.Radius.Value, "unit.radius"); }
                if (u.Size.HasValue) { o.Key("size"); b.Append(u.Size.Value.ToString(CultureInfo.InvariantCulture)); }
                if (u.Capability != null)
                {
                    o.Key("capability"); b.Append('[');
                    for (int i = 0; i < u.Capability.Length; i++) { if (i > 0) b.Append(','); Str(b, u.Capability[i]); }
                    b.Append(']');
                }
                if (u.TurningRadius.HasValue) { o.Key("turning_radius"); Num(b, u.TurningRadius.Value, "unit.turning_radius"); }
                if (u.Reverse.HasValue) { o.Key("reverse"); b.Append(u.Reverse.Value ? "true" : "false"); }
                o.End();
            }
            if (r.Search != null)
            {
                var q = r.Search;
                var o = new Members(b, "search");
                if (q.Algorithm != null) { o.Key("algorithm"); Str(b, q.Algorithm); }
                if (q.Connectivity.HasValue) { o.Key("connectivity"); b.Append(q.Connectivity.Value.ToString(CultureInfo.InvariantCulture)); }
                if (q.Smoothing != null) { o.Key("smoothing"); Str(b, q.Smoothing); }
                o.End();
            }
            if (r.DeadlineMs.HasValue) b.Append(",\"deadline_ms\":").Append(r.DeadlineMs.Value.ToString(CultureInfo.InvariantCulture));
            return b.Append('}').ToString();
        }

        // ,"name":{ then members separated by commas, then }
        private struct Members
        {
            private readonly StringBuilder b;
            private bool any;
            public Members(StringBuilder sb, string name) { b = sb; any = false; b.Append(",\"").Append(name).Append("\":{"); }
            public void Key(string k) { if (any) b.Append(','); any = true; b.Append('"').Append(k).Append("\":"); }
            public void End() { b.Append('}'); }
        }

        private static void PoseJson(StringBuilder b, Pose p, string name)
        {
            if (p == null) throw new ArgumentNullException(name);
            b.Append("{\"x\":"); Num(b, p.X, name + ".x");
            b.Append(",\"y\":"); Num(b, p.Y, name + ".y");
            if (p.Heading.HasValue) { b.Append(",\"heading\":"); Num(b, p.Heading.Value, name + ".heading"); }
            b.Append('}');
        }

        // A finite double with 17 significant digits, which a correct reader (the server's strtod) reads back as
        // the same double: "R" cannot be trusted to, and neither can a check by double.Parse, since Mono's
        // parser reads "16.230544366138" as 16.230544366138002 too. A non-finite double is an ArgumentException
        // naming the field (JSON has none).
        private static void Num(StringBuilder b, double v, string field)
        {
            if (double.IsNaN(v) || double.IsInfinity(v)) throw new ArgumentException(field + " must be a finite number");
            b.Append(v.ToString("G17", CultureInfo.InvariantCulture));
        }

        private static void Str(StringBuilder b, string v)
        {
            if (v == null) { b.Append("null"); return; }
            b.Append('"');
            foreach (char c in v)
            {
                if (c == '"' || c == '\\') b.Append('\\').Append(c);
                else if (c < 0x20) b.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                else b.Append(c);
            }
            b.Append('"');
        }

        /// <summary>The parsed body, or null when it is not JSON of that shape.</summary>
        private static T FromJson<T>(string json) where T : class
        {
            try
            {
                var serializer = new DataContractJsonSerializer(typeof(T));
                using (var stream = new MemoryStream(Encoding.UTF8.GetBytes(json)))
                {
                    return serializer.ReadObject(stream) as T;
                }
            }
            catch (SerializationException) { return null; }
            catch (InvalidCastException) { return null; }
            catch (System.Xml.XmlException) { return null; }
            // a member of the wrong type or range ("clear": "yes", 1e400): the serializer's reflection wraps it
            catch (System.Reflection.TargetInvocationException) { return null; }
            catch (OverflowException) { return null; }
            catch (FormatException) { return null; }
        }
    }
}
