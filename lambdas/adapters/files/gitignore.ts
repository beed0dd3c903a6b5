/**
 * The subset of `.gitignore` the folder scan needs: blank lines and `#` comments, `!` negation,
 * a trailing `/` for directories only, a `/` elsewhere anchoring the pattern to the file's
 * folder, and the globs `*`, `?`, `**` and `[…]`. The last matching rule decides.
 */
import { escapeRegExp } from '../../core/escape-regexp.js';

interface IgnoreRule {
  regex: RegExp;
  negated: boolean;
  directoryOnly: boolean;
}

/** The rules of one `.gitignore`, for paths relative to the folder it is in. */
export function parseGitignore(text: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    if (line.startsWith('\\')) line = line.slice(1);
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) line = line.slice(0, -1);
    const anchored = line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    if (line === '') continue;
    const body = globToRegex(line);
    rules.push({ regex: new RegExp(anchored ? `^${body}$` : `(?:^|/)${body}$`), negated, directoryOnly });
  }
  return rules;
}

/** True when the rules ignore `relativePath` (`/`-separated, relative to the rules' folder). */
export function isIgnored(rules: readonly IgnoreRule[], relativePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const rule of rules) {
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.regex.test(relativePath)) ignored = !rule.negated;
  }
  return ignored;
}

function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i]!;
    if (glob.startsWith('**/', i)) {
      out += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('/**', i) && i + 3 === glob.length) {
      out += '(?:/.*)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      out += '.*';
      i += 1;
    } else if (char === '*') out += '[^/]*';
    else if (char === '?') out += '[^/]';
    else if (char === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end === -1) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (char === '\\' && i + 1 < glob.length) {
      i += 1;
      out += escapeRegExp(glob[i]!);
    } else out += escapeRegExp(char);
  }
  return out;
}
