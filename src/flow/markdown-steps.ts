/**
 * Finds the step blocks of a flow body with markdown-it (CommonMark fences: backticks or
 * tildes, fences in lists and block quotes, longer fences around shorter ones). A fence is
 * a step when its info string's words are `yaml step`. Also returns the documentation:
 * the body without the step blocks.
 */
import MarkdownIt from 'markdown-it';

export interface StepBlock {
  yaml: string;
  /** File line of the opening fence. */
  fenceLine: number;
  /** File line of the first line of the YAML inside the fence. */
  firstLine: number;
}

export interface InfoProblem {
  line: number;
  message: string;
}

export interface BodyParse {
  blocks: StepBlock[];
  doc: string;
  problems: InfoProblem[];
}

let parser: MarkdownIt | undefined;
function md(): MarkdownIt {
  if (parser === undefined) parser = new MarkdownIt('commonmark');
  return parser;
}

export function extractSteps(body: string, bodyFirstLine: number): BodyParse {
  const blocks: StepBlock[] = [];
  const problems: InfoProblem[] = [];
  const removed = new Set<number>();
  const tokens = md().parse(body, {});
  for (const tok of tokens) {
    if (tok.type !== 'fence' || tok.map === null) continue;
    const words = tok.info.trim().split(/\s+/);
    const first = (words[0] ?? '').toLowerCase();
    const second = (words[1] ?? '').toLowerCase();
    const fenceLine = bodyFirstLine + tok.map[0];
    const isStep = words[0] === 'yaml' && words[1] === 'step';
    if (!isStep) {
      if ((first === 'yaml' || first === 'yml') && (second === 'step' || second === 'steps')) {
        problems.push({ line: fenceLine, message: `code block '${tok.info.trim()}' looks like a step but is documentation: the info string of a step is exactly 'yaml step'` });
      }
      continue;
    }
    if (words.length > 2) {
      problems.push({ line: fenceLine, message: `step block info string '${tok.info.trim()}': only the words 'yaml step' are allowed` });
    }
    blocks.push({ yaml: tok.content, fenceLine, firstLine: fenceLine + 1 });
    for (let l = tok.map[0]; l < tok.map[1]; l++) removed.add(l);
  }
  const kept = body.split('\n').filter((_, i) => !removed.has(i));
  const doc = kept
    .join('\n')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { blocks, doc: doc === '' ? '' : `${doc}\n`, problems };
}
