import type { actions as serverActions, SafeResult } from 'astro:actions';
import type { ActionFailure } from '../lib/action-failure';

/**
 * The Astro Actions as islands call them: the same names, calls and results as `actions` from
 * `astro:actions`, at a fraction of its size (the byte budget leaves a form page little room beside
 * React). Astro's own client carries a general decoder for every type its serializer can write; our
 * actions answer plain data (strings, numbers, booleans, lists and objects), which
 * {@link decodeActionData} reads, refusing anything else loudly.
 *
 * Each action keeps the progressive-enhancement metadata React reads when it renders a
 * `<form action={…}>` on the server, so the native form posts to `?_action=<name>` exactly as
 * with Astro's client.
 */
export const actions = actionGroup('') as unknown as typeof serverActions;

function actionGroup(prefix: string): object {
  return new Proxy(
    {},
    {
      get: (_target, key) =>
        typeof key === 'symbol' ? undefined : islandAction(`${prefix}${key}`),
    },
  );
}

function islandAction(name: string) {
  const query = `?_action=${encodeURIComponent(name)}`;
  const call = (input: unknown) => callAction(name, input);
  return new Proxy(
    Object.assign(call, {
      toString: () => query,
      $$FORM_ACTION: () => ({ method: 'POST', name: '_astroAction', action: query }),
    }),
    {
      // `actions.auth.signIn`: a group and an action at once, like Astro's proxy.
      get: (target, key, receiver): unknown =>
        typeof key === 'string' && !(key in target)
          ? islandAction(`${name}.${key}`)
          : Reflect.get(target, key, receiver),
    },
  );
}

async function callAction(name: string, input: unknown): Promise<SafeResult<never, unknown>> {
  const headers = new Headers({ Accept: 'application/json' });
  let body: BodyInit | null = null;
  if (input instanceof FormData) {
    body = input;
  } else if (input !== undefined) {
    body = JSON.stringify(input);
    headers.set('Content-Type', 'application/json');
  } else {
    headers.set('Content-Length', '0');
  }
  const response = await fetch(`/_actions/${name}/`, { method: 'POST', body, headers });
  if (response.status === 204) return { data: undefined, error: undefined };
  const text = await response.text();
  if (response.ok) return { data: decodeActionData(text), error: undefined };
  return { data: undefined, error: actionError(text, response.status) as never };
}

/** Astro answers a failure as JSON: an input error with its issues, or an ActionError. */
function actionError(text: string, status: number): ActionFailure {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const answer = (typeof body === 'object' && body !== null ? body : {}) as {
    type?: unknown;
    code?: unknown;
    message?: unknown;
    issues?: unknown;
  };
  if (answer.type === 'AstroActionInputError' && Array.isArray(answer.issues)) {
    const fields: Record<string, string[]> = {};
    for (const issue of answer.issues as { path?: (string | number)[]; message?: string }[]) {
      const key = issue.path?.[0];
      if (key !== undefined) (fields[key] ??= []).push(issue.message ?? '');
    }
    return { type: answer.type, code: 'BAD_REQUEST', status, message: '', fields };
  }
  return {
    type: 'AstroActionError',
    code: typeof answer.code === 'string' ? answer.code : 'INTERNAL_SERVER_ERROR',
    status,
    message: typeof answer.message === 'string' ? answer.message : '',
  };
}

/**
 * Reads an action's answer as Astro writes it (devalue's flat form: a list of values whose first
 * entry is the answer, objects and lists naming the others by index). Only plain data is read;
 * anything else (a Date, a Map, …) throws, so an action that starts answering with one fails
 * its tests rather than reaching a member half-read.
 */
export function decodeActionData(text: string): unknown {
  const values: unknown = JSON.parse(text);
  // devalue writes `undefined` as the bare index -1.
  if (values === -1) return undefined;
  if (!Array.isArray(values) || values.length === 0) throw new Error('Unreadable action answer');
  const read = (index: unknown): unknown => {
    if (index === -1) return undefined;
    if (typeof index !== 'number' || index < 0 || index >= values.length) {
      throw new Error('Unreadable action answer');
    }
    const value: unknown = values[index];
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      if (typeof value[0] === 'string') throw new Error(`Unexpected ${value[0]} in action answer`);
      return value.map(read);
    }
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, read(entry)]));
  };
  return read(0);
}
