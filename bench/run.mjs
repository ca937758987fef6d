// `npm run bench`: the budgets of docs/PRODUCT.md §14 that can be measured here, on a
// production build served on a fresh database. Prints a table and exits 1 when
// a budget is missed. Traffic goes to 127.0.0.1 only, bounded in time.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const port = Number(process.env.BENCH_PORT ?? 4398);
const origin = `http://127.0.0.1:${port}`;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);

const build = spawnSync('npm', ['run', 'build'], {
  stdio: 'inherit',
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
});
if (build.status !== 0) process.exit(1);

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
const server = spawn('node', ['scripts/start.mjs'], {
  env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise((resolve, reject) => {
  server.stdout.on('data', (chunk) => {
    if (String(chunk).includes('ready')) resolve(undefined);
  });
  server.on('exit', (code) => {
    reject(new Error(`server exited with ${code}`));
  });
});

const results = [];
const record = (what, value, budget, ok) => results.push({ what, value, budget, ok });
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

try {
  const member = { cookie: await signInCookies('member@example.com') };
  // A member whose company requires the phone: signed in, with the MFA step pending.
  const enrolling = { cookie: await signInCookies('secure@example.com') };
  const authPage = 75 * 1024;
  const signedInPage = 100 * 1024;
  const requestPath = await firstRequestPath(member);
  for (const [route, budget, headers] of [
    ['/sign-in', authPage, {}],
    ['/sign-up', authPage, {}],
    ['/sign-up/acme', authPage, {}],
    ['/forgot-password', authPage, {}],
    ['/reset-password/a-reset-token', authPage, {}],
    ['/unlock/an-unlock-token', authPage, {}],
    ['/mfa-enrollment', authPage, enrolling],
    ['/dashboard', signedInPage, member],
    ['/requests', signedInPage, member],
    ['/requests?tab=Closed', signedInPage, member],
    [requestPath, signedInPage, member],
    ['/requests/category/travel', signedInPage, member],
    ['/welcome/about-us', signedInPage, member],
    ['/welcome/about-you', signedInPage, member],
    ['/welcome/contact-info', signedInPage, member],
    ['/no-such-page', 3 * 1024, {}],
  ]) {
    const response = await fetch(`${origin}${route}`, {
      headers: { ...headers, 'accept-encoding': 'br, gzip' },
    });
    const html = await response.text();
    const javaScript = await javaScriptBytes(html);
    record(`JS ${route} (gzip)`, kb(javaScript), kb(budget), javaScript <= budget);
    const htmlGzip = gzipSync(html).length;
    record(`HTML ${route} (gzip)`, kb(htmlGzip), '14.0 KB', htmlGzip <= 14 * 1024);
    const encoding = response.headers.get('content-encoding') ?? 'none';
    record(
      `HTML ${route} compressed on the wire`,
      encoding,
      'br or gzip',
      /br|gzip/.test(encoding),
    );
  }

  const signInRate = await throughput('/sign-in');
  const staticRate = await throughput('/robots.txt');
  const ratio = signInRate / staticRate;
  record('GET /sign-in req/s', signInRate.toFixed(0), '', true);
  record('GET /robots.txt req/s', staticRate.toFixed(0), '', true);
  record('sign-in / static throughput', `${(ratio * 100).toFixed(0)}%`, '≥ 35%', ratio >= 0.35);
} finally {
  server.kill();
  rmSync(dataDir, { recursive: true, force: true });
}

console.table(
  results.map(({ what, value, budget, ok }) => ({
    what,
    value,
    budget,
    result: ok ? 'ok' : 'MISSED',
  })),
);
const missed = results.filter((result) => !result.ok).length;
console.log(missed ? `${missed} budget(s) missed` : 'every budget met');
process.exit(missed ? 1 : 0);

/** The cookies of a fresh session of a demo account (session, MFA step, XSRF token). */
async function signInCookies(email) {
  const page = await fetch(`${origin}/sign-in`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const response = await fetch(`${origin}/sign-in?_action=auth.signIn`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin,
      cookie: `XSRF-TOKEN=${xsrf}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({
      _xsrf: xsrf,
      email,
      password: process.env.DEMO_PASSWORD ?? 'portal-demo-2026',
    }),
  });
  const cookies = response.headers
    .getSetCookie()
    .filter((line) => !/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line));
  if (!cookies.some((line) => /^(__Host-)?session=/.test(line))) {
    throw new Error(`Signing in as ${email} failed (${response.status})`);
  }
  return cookies.map((line) => line.split(';')[0]).join('; ');
}

/** The address of one of the demo member's requests, as the Dashboard links to it. */
async function firstRequestPath(headers) {
  const html = await (await fetch(`${origin}/dashboard`, { headers })).text();
  const path = /href="(\/requests\/[0-9a-f-]{36})"/.exec(html)?.[1];
  if (!path) throw new Error('The Dashboard lists no request of the demo member');
  return path;
}

/** Every script the page loads: inline ones, and modules with their static imports. */
async function javaScriptBytes(html) {
  let total = 0;
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    total += gzipSync(match[1] ?? '').length;
  }
  const pending = [
    ...html.matchAll(/(?:src|component-url|renderer-url|before-hydration-url)="([^"]+\.js)"/g),
  ].map((match) => new URL(match[1] ?? '', origin).href);
  const seen = new Set();
  while (pending.length > 0) {
    const url = pending.pop();
    if (!url || seen.has(url)) continue;
    seen.add(url);
    const code = await (await fetch(url)).text();
    total += gzipSync(code).length;
    for (const match of code.matchAll(/(?:import|from)\s*\(?\s*"(\.{1,2}\/[^"]+\.js)"/g)) {
      pending.push(new URL(match[1] ?? '', url).href);
    }
  }
  return total;
}

/** Requests per second for one path, `concurrency` at a time, for `seconds`. */
async function throughput(route) {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (Date.now() < until) {
      const response = await fetch(`${origin}${route}`);
      await response.arrayBuffer();
      done += 1;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return done / ((Date.now() - started) / 1000);
}
