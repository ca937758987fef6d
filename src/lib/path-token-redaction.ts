/**
 * Finds the tokens that addresses carry in their path, from URLPattern pathnames: the engine of
 * ./token-redaction.ts, without the route table, so that a page can be given the rules as data
 * instead of the table's code.
 */

const redacted = '[redacted]';

/** What an address segment may hold when the address sits in longer text (a message, JSON). */
const segmentCharacters = String.raw`[^/?#\s"'<>]+`;
const wildcardCharacters = String.raw`[^?#\s"'<>]+`;
const segmentEnd = String.raw`(?=[/?#\s"'<>]|$)`;
/**
 * Where a path may begin in text: at its start, after a character that is neither a slash nor
 * part of a segment, or right after an origin. A route is recognised only there, so that the
 * user id of `/reset-password/a/unlock/4` is not taken for the token of `/unlock/:unlockToken`,
 * nor `/api/v1/users/unlock` for a token followed by `/unlock`. Matched and written back rather
 * than looked behind for: browsers this code reaches may not look behind.
 */
const pathStart = String.raw`(^|[^\w.~%/-]|\/\/[^/?#\s"'<>]*)`;

interface Segment {
  readonly kind: 'literal' | 'parameter' | 'wildcard';
  /** The literal's text, or the parameter's name. */
  readonly text: string;
  readonly optional: boolean;
}

/** `/a`, `/:name`, `/:name(\\d+)`, `/*`, each optionally in `{…}?`: the syntax the table uses. */
const segmentSyntax = /\{\/([^{}]*)\}\?|\/([^/{]*)/y;

function segmentsOf(pattern: string): Segment[] {
  const segments: Segment[] = [];
  segmentSyntax.lastIndex = 0;
  while (segmentSyntax.lastIndex < pattern.length) {
    const start = segmentSyntax.lastIndex;
    const found = segmentSyntax.exec(pattern);
    if (!found) throw new Error(`${pattern}: cannot read the pattern at ${start}`);
    const optional = found[1] !== undefined;
    const raw = found[1] ?? found[2] ?? '';
    const parameter = /^:(\w+)(\([^()]*\))?$/.exec(raw);
    if (parameter) segments.push({ kind: 'parameter', text: parameter[1] ?? '', optional });
    else if (raw === '*') segments.push({ kind: 'wildcard', text: '*', optional });
    else if (/^[\w.~-]*$/.test(raw)) segments.push({ kind: 'literal', text: raw, optional });
    else throw new Error(`${pattern}: cannot read the segment ${raw}`);
  }
  return segments;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface RedactionRule {
  /** The rule's regular expression, one capture group per segment, without the path start. */
  readonly source: string;
  /** For each segment the source captures, whether it is a secret. */
  readonly secretSegments: readonly boolean[];
}

/**
 * The rule that finds the route's secret segments in any text: the segments up to its last
 * secret, and, when no fixed segment comes before the first secret, the fixed ones after it too
 * (without them a lone token would look like any other path).
 */
function redactionRuleFor(
  pattern: string,
  loggableParameters: ReadonlySet<string>,
): RedactionRule | undefined {
  const segments = segmentsOf(pattern);
  const isSecret = (segment: Segment) =>
    segment.kind === 'wildcard' ||
    (segment.kind === 'parameter' && !loggableParameters.has(segment.text));
  const firstSecret = segments.findIndex(isSecret);
  if (firstSecret === -1) return undefined;
  let end = segments.findLastIndex(isSecret) + 1;
  const fixedBefore = segments
    .slice(0, firstSecret)
    .some((segment) => segment.kind === 'literal' && !segment.optional && segment.text !== '');
  if (!fixedBefore) {
    const start = end;
    while (end < segments.length && segments[end]?.kind === 'literal' && !segments[end]?.optional) {
      end += 1;
    }
    if (end === start) {
      throw new Error(`${pattern}: a token needs a fixed segment before or after it to be found`);
    }
  }
  const used = segments.slice(0, end);
  const source = used
    .map((segment) => {
      const body =
        segment.kind === 'literal'
          ? `\\/${escapeRegExp(segment.text)}`
          : `\\/${segment.kind === 'wildcard' ? wildcardCharacters : segmentCharacters}`;
      return segment.optional ? `(${body})?` : `(${body})`;
    })
    .join('');
  return { source: `${source}${segmentEnd}`, secretSegments: used.map(isSecret) };
}

/**
 * What a redactor needs, as plain data a page can be given: one expression that finds every
 * route's address, and for each route which of its segments are secrets.
 */
export interface PathTokenRules {
  /** The expression's source (flags `gi`), one alternative per route. */
  readonly matcher: string;
  /** For each route, in the order of the alternatives, whether each captured segment is secret. */
  readonly secretSegments: readonly (readonly boolean[])[];
}

/**
 * The rules that find the secret segments of every address matching one of `patterns`
 * (URLPattern pathnames). Parameters named in `loggableParameters` are kept; every other
 * parameter, and every wildcard, is a secret.
 */
export function pathTokenRules(
  patterns: readonly string[],
  loggableParameters: ReadonlySet<string>,
): PathTokenRules {
  const bySource = new Map<string, RedactionRule>();
  for (const pattern of patterns) {
    const rule = redactionRuleFor(pattern, loggableParameters);
    if (rule) bySource.set(rule.source, rule);
  }
  // Where two routes match at the same place, the one with more segments hides more.
  const rules = [...bySource.values()].sort(
    (first, second) => second.secretSegments.length - first.secretSegments.length,
  );
  return {
    matcher:
      rules.length === 0
        ? ''
        : `${pathStart}(?:${rules.map(({ source }) => `(${source})`).join('|')})`,
    secretSegments: rules.map(({ secretSegments }) => secretSegments),
  };
}

/**
 * A function that replaces, in any text, the secret segments that `rules` find with
 * `[redacted]`. All routes are looked for in one pass over the text as it was given, so that what
 * one route's redaction leaves behind is never read as the start of another's address.
 */
export function redactorFromRules({ matcher, secretSegments }: PathTokenRules) {
  if (matcher === '') return (text: string) => text;
  const expression = new RegExp(matcher, 'gi');
  const written = (segments: readonly unknown[], secrets: readonly boolean[]) =>
    secrets
      .map((secret, index) => {
        const segment = segments[index];
        if (typeof segment !== 'string') return '';
        return secret ? `/${redacted}` : segment;
      })
      .join('');
  return (text: string): string =>
    text.replace(expression, (whole: string, before: string, ...groups: unknown[]) => {
      let group = 0;
      for (const secrets of secretSegments) {
        if (typeof groups[group] === 'string') {
          return before + written(groups.slice(group + 1), secrets);
        }
        group += 1 + secrets.length;
      }
      return whole;
    });
}

/** {@link redactorFromRules} of {@link pathTokenRules}. */
export function pathTokenRedactor(
  patterns: readonly string[],
  loggableParameters: ReadonlySet<string>,
): (text: string) => string {
  return redactorFromRules(pathTokenRules(patterns, loggableParameters));
}
