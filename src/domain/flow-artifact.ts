/** One published version of a flow: its compiled IR and where `latest` points. */
export interface FlowArtifact {
  readonly tenant: string;
  readonly name: string;
  readonly version: string;
  /** SHA-256 (hex) of `ir`, the compact IR JSON. */
  readonly hash: string;
  readonly ir: string;
  readonly deployedAt: string;
}

export interface FlowHead {
  readonly tenant: string;
  readonly name: string;
  readonly latestVersion: string;
}

/** The one read `svc serve` and `config check` make at start: the latest version of every flow. */
export interface LatestFlows {
  listLatest(): Promise<FlowArtifact[]>;
}

export interface FlowArtifactRepository extends LatestFlows {
  /** Stores the version and moves `latest` to it in one transaction; `conflict` when the version exists. */
  publish(artifact: FlowArtifact): Promise<void>;
  find(tenant: string, name: string, version: string): Promise<FlowArtifact | undefined>;
  latest(tenant: string, name: string): Promise<FlowArtifact | undefined>;
  /** The latest version of every deployed flow, ordered by tenant and name. */
  listLatest(): Promise<FlowArtifact[]>;
  versions(tenant: string, name: string): Promise<Array<Omit<FlowArtifact, 'ir'>>>;
}

/** Version strings: what `deploy --version` accepts. */
export const FLOW_VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z._+-]{0,63}$/;
