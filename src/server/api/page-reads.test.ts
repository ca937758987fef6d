import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../route-matching';
import { ApiClient, type ApiTransport } from './client';
import { pageReads, readAheadPaths } from './page-reads';

const readsAt = (address: string): string[] => {
  const url = new URL(address, 'https://portal.test');
  const match = matchRoute(url.pathname);
  if (match.kind !== 'page') throw new Error(`${address} is no page`);
  return readAheadPaths(match, url);
};

describe('the reads a page view makes ahead', () => {
  it.each([
    ['/dashboard', ['/api/v1/users/current', '/api/v1/dashboard']],
    [
      '/requests?page=2',
      [
        '/api/v1/users/current',
        '/api/v1/requests?status=open&page=2',
        '/api/v1/requests?status=closed',
        '/api/v1/request_categories',
      ],
    ],
    ['/requests/r-1', ['/api/v1/users/current', '/api/v1/requests/r-1']],
    [
      '/requests/r-1/attachments/f-1',
      ['/api/v1/users/current', '/api/v1/requests/r-1', '/api/v1/attachments/f-1'],
    ],
    [
      '/requests/category/travel?page=3',
      [
        '/api/v1/users/current',
        '/api/v1/request_categories/travel?page=3',
        '/api/v1/request_categories',
      ],
    ],
    ['/account/security', ['/api/v1/users/current', '/api/v1/mfa', '/api/v1/mfa/passkeys']],
    [
      '/account/devices',
      ['/api/v1/users/current', '/api/v1/users/sessions', '/api/v1/users/remembered-devices'],
    ],
    ['/account', ['/api/v1/users/current']],
  ])('reads for %s what its page reads', (address, paths) => {
    expect(readsAt(address)).toEqual(paths);
  });

  it('asks nothing for an id that could never be one', () => {
    expect(readsAt('/requests/..%2Fusers')).toEqual(['/api/v1/users/current']);
  });

  it('gives the page the answers of the same addresses, read once', async () => {
    const asked: string[] = [];
    const transport: ApiTransport = async (request) => {
      const { pathname, search } = new URL(request.url);
      asked.push(`${request.method} ${pathname}${search}`);
      const body = (await request.json()) as { requests: { path: string }[] };
      return Response.json({
        responses: body.requests.map(({ path }) => ({
          status: 200,
          body: path.endsWith('/sessions') ? { sessions: [] } : { remembered_devices: [] },
        })),
      });
    };
    const api = new ApiClient({
      transport,
      baseUrl: 'http://api.test',
      credentials: { token: 't' },
    });
    const page = { params: {}, url: new URL('https://portal.test/account/devices') };
    const match = matchRoute('/account/devices');
    if (match.kind !== 'page') throw new Error('no page');
    await api.readAhead(readAheadPaths(match, page.url));
    const reads = pageReads.AccountDevices();
    await Promise.all([reads.sessions.read(api), reads.remembered.read(api)]);
    expect(asked).toEqual(['POST /api/v1/batch']);
  });
});
