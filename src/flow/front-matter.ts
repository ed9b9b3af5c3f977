/**
 * Splits a flow file into its YAML front matter and its Markdown body.
 *
 * The `front-matter` package trims the YAML text before parsing it, which loses the line
 * numbers we report, and it cannot tell an unclosed block from a missing one; this splitter
 * follows the same convention (a first line `---`, closed by `---` or `...`) and keeps lines.
 */
export type FrontMatterSplit =
  | { ok: true; yaml: string; yamlFirstLine: number; body: string; bodyFirstLine: number }
  | { ok: false; line: number; message: string };

const OPEN = /^---[ \t]*$/;
const CLOSE = /^(---|\.\.\.)[ \t]*$/;

export function splitFrontMatter(text: string): FrontMatterSplit {
  if (text.trim() === '') {
    return {
      ok: false,
      line: 1,
      message: "empty file: a flow file starts with front matter ('---', the settings such as tenant and flow, '---') followed by Markdown with ```yaml step blocks",
    };
  }
  const lines = text.split('\n');
  if (!OPEN.test(lines[0] ?? '')) {
    return {
      ok: false,
      line: 1,
      message: "missing front matter: the first line must be '---', followed by the YAML settings (tenant, flow, ...) and a closing '---'",
    };
  }
  for (let i = 1; i < lines.length; i++) {
    if (CLOSE.test(lines[i] ?? '')) {
      return {
        ok: true,
        yaml: lines.slice(1, i).join('\n'),
        yamlFirstLine: 2,
        body: lines.slice(i + 1).join('\n'),
        bodyFirstLine: i + 2,
      };
    }
  }
  return {
    ok: false,
    line: 1,
    message: "front matter is not closed: the '---' on line 1 needs a matching '---' line after the settings",
  };
}
