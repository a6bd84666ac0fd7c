// The part of autocannon's programmatic API the harness uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  interface RequestSpec {
    method?: string;
    headers?: Record<string, string>;
    path?: string;
    body?: string;
    /** `context` is per connection: what setupRequest stores there, onResponse reads back. */
    setupRequest?: (req: RequestSpec, context: Record<string, unknown>) => RequestSpec;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    requests?: RequestSpec[];
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
