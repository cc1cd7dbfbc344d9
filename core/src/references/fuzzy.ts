/**
 * Fuzzy ranking of paths for `@` completion. A path matches when the query's characters appear
 * in it in order (case-insensitive); among matches, better scores go to characters that follow
 * each other, that start a word (after `/ _ - .`, or a lower→upper case step), that fall in the
 * file's own name rather than its folders, an exact or prefix match of the name, and shorter
 * paths. A query with `/` is matched against the whole path from its start-of-word positions.
 */

/** A scored path. */
export interface RankedPath {
  path: string;
  score: number;
}

const BOUNDARY = new Set(['/', '_', '-', '.', ' ']);

function isBoundary(path: string, i: number): boolean {
  if (i === 0) return true;
  const prev = path[i - 1]!;
  if (BOUNDARY.has(prev)) return true;
  const c = path[i]!;
  return prev >= 'a' && prev <= 'z' && c >= 'A' && c <= 'Z';
}

/**
 * Scores `q` (lower case) against `path` from `from` on, greedily: each query character takes its
 * next occurrence, preferring one that starts a word within the next few characters.
 * @returns the score, or -1 when `q` is not a subsequence of `path.slice(from)`.
 */
function scoreFrom(path: string, lower: string, q: string, from: number): number {
  let score = 0;
  let pos = from;
  let prev = -2;
  for (let k = 0; k < q.length; k++) {
    const ch = q[k]!;
    let i = lower.indexOf(ch, pos);
    if (i < 0) return -1;
    // a word start a little further on beats a mid-word hit (`ap` in `a_path`: the `p` of `path`)
    if (i !== prev + 1 && !isBoundary(path, i)) {
      for (let j = i + 1; j < lower.length && j < i + 12; j++)
        if (lower[j] === ch && isBoundary(path, j)) {
          i = j;
          break;
        }
    }
    score += 1;
    if (i === prev + 1) score += 6;
    if (isBoundary(path, i)) score += 8;
    else score -= Math.min(3, (i - prev - 1) * 0.2);
    prev = i;
    pos = i + 1;
  }
  return score;
}

/**
 * The score of `path` for `query` (higher is better), or -1 when it does not match. An empty query
 * matches everything (shorter paths first).
 */
export function fuzzyScore(query: string, path: string): number {
  const lower = path.toLowerCase();
  const q = query.toLowerCase();
  const lengthPenalty = path.length * 0.05;
  if (q === '') return 100 - lengthPenalty;
  const trimmed = lower.endsWith('/') ? lower.slice(0, -1) : lower;
  const slash = trimmed.lastIndexOf('/');
  const nameStart = slash + 1;
  const name = trimmed.slice(nameStart);
  let best = -1;
  if (!q.includes('/')) {
    const inName = scoreFrom(path, lower, q, nameStart);
    if (inName >= 0) {
      best = inName + 25;
      const stem = name.includes('.') ? name.slice(0, name.indexOf('.')) : name;
      if (name === q || stem === q) best += 60;
      else if (name.startsWith(q)) best += 30;
    }
  }
  if (best < 0) {
    best = scoreFrom(path, lower, q, 0);
    if (best < 0) return -1;
    if (lower.startsWith(q)) best += 20;
  }
  return best - lengthPenalty;
}

/**
 * The best `limit` matches of `query` among `paths`, best first (ties: shorter path, then
 * alphabetical). Linear in the number of paths; only matches are scored in full.
 */
export function rankPaths(paths: Iterable<string>, query: string, limit: number): RankedPath[] {
  const q = query.toLowerCase();
  const top: RankedPath[] = [];
  let floor = -Infinity;
  for (const path of paths) {
    if (q && !isSubsequence(q, path.toLowerCase())) continue;
    const score = fuzzyScore(q, path);
    if (score < 0 || (top.length >= limit && score <= floor)) continue;
    top.push({ path, score });
    if (top.length > limit * 4) {
      top.sort(compare);
      top.length = limit;
      floor = top[limit - 1]!.score;
    }
  }
  top.sort(compare);
  return top.slice(0, limit);
}

function compare(a: RankedPath, b: RankedPath): number {
  return b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : 1);
}

function isSubsequence(q: string, s: string): boolean {
  let pos = 0;
  for (let k = 0; k < q.length; k++) {
    pos = s.indexOf(q[k]!, pos);
    if (pos < 0) return false;
    pos++;
  }
  return true;
}
