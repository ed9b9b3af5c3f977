/** The in-memory model of a parsed flow or library file, between parsing and IR. */
import type { FlowFrontMatter, LibraryFrontMatter } from './codecs/front-matter.codec';
import type { StepType } from './codecs/steps.codec';
import type { Path } from './yaml-located';

export interface SwitchCaseNode {
  when: unknown;
  /** Path of the case map, relative to the owning step map. */
  path: Path;
  steps: StepNode[];
}

export interface StepNode {
  /** File the step was written in (a library's file for spliced steps). */
  file: string;
  id: string;
  type: StepType;
  /** Line of the step (its `id` key). */
  line: number;
  /** Values of the step's known fields as written (templates not yet lowered). */
  fields: Record<string, unknown>;
  /** False when a field failed its codec; the IR is not built then, other checks still run. */
  shapeOk: boolean;
  /** Line of a field, the path relative to this step's map. */
  lineOf: (path: Path) => number;
  /** Prefix added to `steps.X` references of this step's expressions (splicing). */
  refPrefix: string;
  /** Library name when the step was spliced in by `include`. */
  fromLibrary?: string;
  /** foreach: nested steps. */
  children?: StepNode[];
  /** switch: cases and default. */
  cases?: SwitchCaseNode[];
  defaultSteps?: StepNode[];
  /** include / call_flow {lib}: the library, once loaded. */
  library?: LoadedLibrary;
}

export interface LoadedLibrary {
  /** The name as referenced, without the `.flow.md` suffix. */
  name: string;
  file: string;
  /** Steps after the library's own includes were spliced. */
  steps: StepNode[];
  /** The library's config/secret keys, and those of every library it uses. */
  config: string[];
  secrets: string[];
}

export interface ParsedFile {
  file: string;
  kind: 'flow' | 'library';
  /** Flow files: the front matter, set only when every key decoded. */
  flow?: FlowFrontMatter;
  /**
   * Flow files: the front-matter keys that decoded, each by its own codec (the keys that failed
   * are absent). Checks that depend on a key run on this, so a bad key does not hide the others.
   */
  settings: Partial<FlowFrontMatter>;
  library?: LibraryFrontMatter;
  /** The front matter map as written (also when it failed to decode). */
  raw: Record<string, unknown>;
  fmLine: (path: Path) => number;
  steps: StepNode[];
  doc: string;
  /** Keys declared (best effort, also when the front matter has errors). */
  config: string[];
  secrets: string[];
  /** Ids of steps that failed to parse (references to them are not reported again). */
  unresolved: Set<string>;
}
