import { describe, expect, it } from 'vitest';
import { ApiClient, ApiError, type ApiTransport } from './client';
import {
  addNoteToRequest,
  cancelRequest,
  createRequest,
  fetchCategory,
  fetchDownload,
  fetchRequest,
  fetchRequests,
} from './requests';

function answering(answer: (request: Request) => Response) {
  const requests: Request[] = [];
  const transport: ApiTransport = (request) => {
    requests.push(request);
    return Promise.resolve(answer(request));
  };
  const api = new ApiClient({ transport, baseUrl: 'http://api.test', credentials: { token: 't' } });
  return { api, requests };
}

const travel = { id: 'travel', name: 'Travel', description: 'Trips.', icon: 'travel' };
const summary = {
  id: '6711bf06-dc20-4ebd-b39b-1ef87428bbc8',
  title: 'Flights to Denver',
  status: 'in_progress',
  category: travel,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  attachment_count: 0,
};
const meta = { page: 1, per_page: 10, total_count: 1, total_pages: 1 };
const notFound = () => Response.json({ error: 'Not found.' }, { status: 404 });

describe('reading requests from the API', () => {
  it('asks for one filter and page of the member’s requests', async () => {
    const { api, requests } = answering(() => Response.json({ requests: [summary], meta }));
    const list = await fetchRequests(api, { status: 'closed', position: { page: 3 } });
    expect(new URL(requests[0]?.url ?? '').search).toBe('?status=closed&page=3');
    await fetchRequests(api, { status: 'open', position: { after: 'c1' } });
    expect(new URL(requests[1]?.url ?? '').search).toBe('?status=open&after=c1');
    expect(list.requests[0]?.category.icon).toBe('travel');
  });

  it('answers nothing for a request the API does not find, or an id that cannot be one', async () => {
    const { api, requests } = answering(notFound);
    expect(await fetchRequest(api, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(await fetchRequest(api, '../users/current')).toBeUndefined();
    expect(await fetchCategory(api, 'gardening')).toBeUndefined();
    expect(await fetchDownload(api, 'nope')).toBeUndefined();
    expect(requests).toHaveLength(3);
  });

  it('refuses an answer outside the contract instead of showing half of it', async () => {
    const { api } = answering(() =>
      Response.json({ requests: [{ ...summary, status: 'archived' }], meta }),
    );
    await expect(fetchRequests(api)).rejects.toMatchObject({ status: 502 });
  });

  it('shows a category without an icon it does not know', async () => {
    const { api } = answering(() =>
      Response.json({ category: { ...travel, icon: 'boat' }, requests: [], meta }),
    );
    const found = await fetchCategory(api, 'travel', { page: 2 });
    expect(found?.meta).toMatchObject({ next_cursor: null, previous_cursor: null });
    expect(found?.category.icon).toBeNull();
  });

  it('passes on failures other than not found', async () => {
    const { api } = answering(() => Response.json({ error: 'Boom.' }, { status: 500 }));
    await expect(fetchRequest(api, summary.id)).rejects.toBeInstanceOf(ApiError);
  });
});

describe('changing requests through the API', () => {
  it('makes a request with the contract’s field names and answers its id', async () => {
    const { api, requests } = answering(() => Response.json({ id: 'r-1' }, { status: 201 }));
    const id = await createRequest(api, {
      categoryId: 'travel',
      title: 'Flights',
      details: '',
      attachmentIds: ['f-1'],
    });
    expect(id).toBe('r-1');
    expect(requests[0]?.method).toBe('POST');
    expect(new URL(requests[0]?.url ?? '').pathname).toBe('/api/v1/requests');
    expect(await requests[0]?.json()).toEqual({
      request: { category_id: 'travel', title: 'Flights', details: '', attachment_ids: ['f-1'] },
    });
  });

  it('adds a note and cancels at the request’s own address, its id encoded', async () => {
    const { api, requests } = answering(() => Response.json({}));
    await addNoteToRequest(api, 'a/b', { body: 'Thanks', attachmentIds: [] });
    await cancelRequest(api, 'r-1');
    expect(new URL(requests[0]?.url ?? '').pathname).toBe('/api/v1/requests/a%2Fb/notes');
    expect(await requests[0]?.json()).toEqual({ note: { body: 'Thanks', attachment_ids: [] } });
    expect(new URL(requests[1]?.url ?? '').pathname).toBe('/api/v1/requests/r-1/cancel');
    expect(requests[1]?.method).toBe('POST');
  });
});
