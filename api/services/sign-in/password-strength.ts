import type { MatchEstimated, ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * How guessable a password is, by zxcvbn (`@zxcvbn-ts/core`) with its dictionaries of common and
 * breached passwords (`@zxcvbn-ts/language-common`) and of English words, names and Wikipedia
 * titles (`@zxcvbn-ts/language-en`). Everything runs in this process: a password is never sent
 * anywhere. Server side only: nothing here may be imported by a page or an island.
 *
 * The choices (threshold, the 64-character window, the l33t limit) and their measurements are in
 * docs/decisions/046-passwords-by-zxcvbn.md.
 */

/**
 * zxcvbn's time grows faster than the length (a 128-character password of l33t characters took
 * over a second with its defaults), so it sees the first 64 characters only (UTF-16 units: an
 * emoji counts twice). A password whose first 64 characters are hard to guess is hard to guess;
 * one whose first 64 are not is refused, whatever follows.
 */
export const STRENGTH_CHECK_MAX_LENGTH = 64;

/**
 * How many l33t readings (`p@ssw0rd` read as `password`) zxcvbn tries. Each reading is one more
 * pass over every dictionary, and its default, 100, made a long string of `0`, `1`, `@`, `$`…
 * take over a second. The first readings substitute every character that can be read as a
 * letter, which is what finds the common passwords: on 32 l33t variants of common passwords, 1
 * reading gave the same estimates as 100.
 */
const L33T_MAX_SUBSTITUTIONS = 4;

/**
 * Fewer estimated guesses than 10^8 is weak. This is zxcvbn's boundary between score 2 and
 * score 3 ("safely unguessable"); zxcvbn puts a password exactly on it (8 characters in which it
 * finds no pattern, counted as 10^8 + 1 guesses) in score 2 by a margin of 5 guesses, which would
 * turn the 8-character minimum into a 9-character one. Here it passes.
 */
const MINIMUM_GUESSES_LOG10 = 8;

/** Why a password is easy to guess; each has its own sentence in passwords.ts. */
export type Weakness =
  'common' | 'personal' | 'words' | 'repeat' | 'sequence' | 'keyboard' | 'date' | 'guessable';

let estimator: Promise<ZxcvbnFactory> | undefined;

async function loadEstimator(): Promise<ZxcvbnFactory> {
  const [{ ZxcvbnFactory }, common, english] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  return new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
    maxLength: STRENGTH_CHECK_MAX_LENGTH,
  });
}

/**
 * The estimator with its dictionaries, loaded on first use (the API starts it) and then kept: about
 * 0.6 s and 27 MB of heap, once per process. A failed load is tried again on the next use.
 */
export function passwordEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= loadEstimator().catch((error: unknown) => {
    estimator = undefined;
    throw error;
  });
  return estimator;
}

/**
 * The words of the member's own details that a password must not be built from: the email, its
 * part before the @, and the pieces of both; the name and the last name and their words. Pieces of
 * fewer than 3 characters are left out: they would be found inside ordinary words.
 */
function personalWords(details: readonly string[]): string[] {
  const words = new Set<string>();
  const add = (word: string): void => {
    const trimmed = word.trim().toLowerCase();
    if (Array.from(trimmed).length >= 3) words.add(trimmed);
  };
  for (const detail of details) {
    add(detail);
    const at = detail.lastIndexOf('@');
    if (at > 0) add(detail.slice(0, at));
    for (const piece of detail.split(/[^\p{L}\p{N}]+/u)) add(piece);
  }
  // Longest first, so that the email goes before its pieces.
  return [...words].sort((a, b) => b.length - a.length);
}

/** The password with the member's own words taken out; undefined when it has none of them. */
function withoutPersonalWords(password: string, words: readonly string[]): string | undefined {
  let rest = password.toLowerCase();
  let found = false;
  for (const word of words) {
    if (!rest.includes(word)) continue;
    found = true;
    rest = rest.split(word).join('');
  }
  return found ? rest : undefined;
}

/** The longest part zxcvbn recognised, the first of equals: what the refusal talks about. */
function mainPattern(sequence: readonly MatchEstimated[]): MatchEstimated | undefined {
  let main: MatchEstimated | undefined;
  for (const match of sequence) {
    if (match.pattern === 'bruteforce' || match.pattern === 'separator') continue;
    if (main === undefined || match.token.length > main.token.length) main = match;
  }
  return main;
}

function weaknessOfPattern(match: MatchEstimated | undefined): Weakness {
  switch (match?.pattern) {
    case 'dictionary':
      return String(match['dictionaryName']).startsWith('passwords') ? 'common' : 'words';
    case 'repeat':
      return 'repeat';
    case 'sequence':
    case 'wordSequence':
      return 'sequence';
    case 'spatial':
      return 'keyboard';
    case 'date':
    case 'regex':
      return 'date';
    default:
      return 'guessable';
  }
}

/**
 * Why this password is easy to guess, or undefined when it is not. First, built from the member's
 * own details (`personal`): what is left once they are taken out would be weak on its own. Then
 * zxcvbn's estimate, with those details as its user inputs: a common password or a small
 * variation of one (`common`), else the kind of pattern that makes it weak.
 * @param password already NFKC-normalised; zxcvbn looks at its first 64 characters.
 * @param details the member's email, name and last name.
 */
export async function passwordWeakness(
  password: string,
  details: readonly string[],
): Promise<Weakness | undefined> {
  const zxcvbn = await passwordEstimator();
  const words = personalWords(details);

  const rest = withoutPersonalWords(password, words);
  if (rest !== undefined && zxcvbn.check(rest).guessesLog10 < MINIMUM_GUESSES_LOG10) {
    return 'personal';
  }
  // zxcvbn itself cuts the password to STRENGTH_CHECK_MAX_LENGTH (its maxLength).
  const result = zxcvbn.check(password, words);
  if (result.guessesLog10 >= MINIMUM_GUESSES_LOG10) return undefined;
  return weaknessOfPattern(mainPattern(result.sequence as MatchEstimated[]));
}
