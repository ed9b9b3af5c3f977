/**
 * The outbound HTTP port of the engine. The engine builds complete requests (URL with query,
 * headers including X-Correlation-ID, encoded body); an egress only moves bytes.
 */

/**
 * TLS client material of one flow, as file paths. The object's identity is the cache key: an
 * egress reads the files once per object (one object per prepared flow) and reuses the
 * connection pool built from them.
 */
export interface TlsClientFiles {
  readonly certFile: string | null;
  readonly keyFile: string | null;
  readonly caFile: string | null;
}

export interface EgressRequest {
  method: string;
  /** Absolute http(s) URL, query included. */
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** Present for steps with `tls: true`. */
  tls?: TlsClientFiles;
  /** Aborts the request (step timeout, flow deadline, cancellation). */
  signal?: AbortSignal;
}

export interface EgressResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * What went wrong when no HTTP answer was obtained.
 * - `connection`: refused, reset, DNS, TLS handshake, ... (retryable; upstream_error)
 * - `response_too_large`: the answer exceeded the egress' ceiling (upstream_error)
 * - `invalid_request`: the request could not be sent as built (bad header value, ...; flow_error)
 * - `tls_material`: the flow's certificate/key/CA files could not be read (flow_error)
 * - `aborted`: the request's signal fired
 */
export type EgressErrorKind = 'connection' | 'response_too_large' | 'invalid_request' | 'tls_material' | 'aborted';

export class EgressError extends Error {
  constructor(
    readonly kind: EgressErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'EgressError';
  }
}

export interface HttpEgress {
  /** Resolves with any HTTP answer (whatever its status); rejects with EgressError otherwise. */
  request(req: EgressRequest): Promise<EgressResponse>;
  /** Closes pooled connections. */
  close?(): Promise<void>;
}
