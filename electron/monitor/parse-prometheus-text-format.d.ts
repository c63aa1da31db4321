// The package ships no types; this is the shape its parser returns (values stay text).
declare module 'parse-prometheus-text-format' {
  export interface PrometheusSample {
    value?: string;
    labels?: Record<string, string>;
    timestamp_ms?: string;
  }
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: string;
    metrics: PrometheusSample[];
  }
  /** Throws on a line that is not in the text exposition format. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
