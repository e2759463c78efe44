// The parts of autocannon's API the load runner uses (the package ships no type declarations).
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: { path: string; body?: string }) => { path: string; body?: string };
  }
  interface AutocannonOptions {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    amount?: number;
    requests?: AutocannonRequest[];
  }
  interface AutocannonResult {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  export default autocannon;
}
