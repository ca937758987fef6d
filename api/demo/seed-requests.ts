import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { HOUR, type Clock } from '../../platform/clock.ts';
import { newStorageKey } from '../services/files/files.ts';
import type { FileStorage } from '../services/files/storage/file-storage.ts';
import type { Database } from '../db/client.ts';
import {
  blobs,
  requests,
  requestUpdates,
  users,
  type RequestStatus,
  type RequestUpdateAuthor,
} from '../db/schema/index.ts';

/**
 * The demo members' concierge requests, their timelines and files, seeded after the accounts
 * (seed.ts).
 */

/** A file the demo data attaches, written to storage as a member would have uploaded it. */
interface DemoFile {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

/** A timeline entry after the request's creation. */
interface DemoEvent {
  hoursAgo: number;
  author: RequestUpdateAuthor;
  /** A status change to this status, or (absent) a note. */
  status?: RequestStatus;
  body: string;
  file?: DemoFile;
}

interface DemoRequest {
  email: string;
  categoryId: string;
  title: string;
  details: string;
  hoursAgo: number;
  file?: DemoFile;
  events: readonly DemoEvent[];
}

const text = (content: string) => new TextEncoder().encode(content);

/** A one-page PDF saying `lines`, with a correct cross-reference table. */
function demoPdf(lines: readonly string[]): Uint8Array {
  const escaped = lines.map((line) => line.replace(/[\\()]/g, (character) => `\\${character}`));
  const stream = [
    'BT /F1 14 Tf 72 720 Td 18 TL',
    ...escaped.map((line) => `(${line}) Tj T*`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return text(pdf);
}

/** The demo member's moving inventory, attached to the movers request; tests download it back. */
export const MOVING_INVENTORY: DemoFile = {
  filename: 'Moving inventory.txt',
  contentType: 'text/plain',
  content: text(
    [
      'Moving inventory: 2-bedroom apartment, 3rd floor, elevator available',
      '',
      '- Queen bed and frame, 2 nightstands',
      '- 3-seat sofa, armchair, coffee table',
      '- Dining table with 4 chairs',
      '- Desk and office chair',
      '- About 25 boxes (books, kitchen, clothes)',
      '- Washer and dryer (stay with the apartment)',
      '',
      'Fragile: framed prints, a glass-top side table.',
      '',
    ].join('\n'),
  ),
};

const SCHOOL_SCHEDULE: DemoFile = {
  filename: 'Fall school schedule.pdf',
  contentType: 'application/pdf',
  content: demoPdf([
    'Lincoln Elementary - Fall schedule',
    'Dismissal: 3:15 pm (Thursdays included)',
    'Pick-up at the north gate, ID required',
    'Early release: the first Thursday of each month at 1:30 pm',
  ]),
};

const DENTAL_CARD: DemoFile = {
  filename: 'Dental plan card.txt',
  contentType: 'text/plain',
  content: text('Delta Dental PPO\nGroup number: 114-2207\nMember: Avery Jordan and dependants\n'),
};

const DAY = 24;

/**
 * The demo members' requests: every status, several categories, a timeline a concierge would
 * write, and files of both kinds (text and PDF).
 */
const DEMO_REQUESTS: readonly DemoRequest[] = [
  {
    email: 'member@example.com',
    categoryId: 'home-and-moving',
    title: 'Movers for our move on April 12',
    details:
      'We are moving from our apartment on Elm Street to a house across town. Please find a ' +
      'licensed mover with insurance, ideally for a morning start. The inventory is attached.',
    hoursAgo: 3,
    file: MOVING_INVENTORY,
    events: [],
  },
  {
    email: 'member@example.com',
    categoryId: 'travel',
    title: 'Flights to Denver for the March conference',
    details:
      'Round trip for the conference on March 18–20. I would like to fly out the evening ' +
      'before and come back on the last afternoon. Aisle seat if possible.',
    hoursAgo: 6 * DAY,
    events: [
      {
        hoursAgo: 6 * DAY - 2,
        author: 'concierge',
        status: 'in_progress',
        body: 'Hi Avery, I am on it. I will look at nonstop options from your home airport first.',
      },
      {
        hoursAgo: 4 * DAY,
        author: 'concierge',
        body:
          'Two good options: a United nonstop leaving 6:40 pm on March 17 ($312 round trip), or ' +
          'a Southwest flight with one stop leaving 5:55 pm ($248). Both come back on March 20 ' +
          'around 4 pm. Which would you prefer?',
      },
      {
        hoursAgo: 3 * DAY,
        author: 'member',
        body: 'The United nonstop, please.',
      },
      {
        hoursAgo: 20,
        author: 'concierge',
        body:
          'Booked: United, confirmation QX7P2L. Seat 14C out and 11D back (both aisles). The ' +
          'itinerary is in your email; I am now looking at hotels near the venue.',
      },
    ],
  },
  {
    email: 'member@example.com',
    categoryId: 'health-and-wellness',
    title: 'A pediatric dentist near home',
    details:
      'Our son is 7 and due for a check-up. We need a dentist within about 20 minutes who takes ' +
      'our plan and has after-school appointments.',
    hoursAgo: 4 * DAY,
    file: DENTAL_CARD,
    events: [
      {
        hoursAgo: 4 * DAY - 3,
        author: 'concierge',
        status: 'in_progress',
        body: 'Thanks for the plan details. I am checking which practices near you are in network.',
      },
      {
        hoursAgo: 2 * DAY,
        author: 'concierge',
        status: 'waiting_on_member',
        body:
          'I found two in-network practices with 4 pm appointments: Bright Smiles Pediatric ' +
          'Dentistry (12 minutes away) and Maple Grove Family Dental (18 minutes). Bright Smiles ' +
          'has a slot on Tuesday the 9th. Shall I book it, or would you rather see Maple Grove?',
      },
    ],
  },
  {
    email: 'member@example.com',
    categoryId: 'everyday-errands',
    title: 'Return a pair of boots',
    details:
      'The winter boots I ordered from Northline Outfitters are a size too small. The return ' +
      'window closes at the end of the month; the box and receipt are by the front door.',
    hoursAgo: 2 * DAY,
    events: [
      {
        hoursAgo: 2 * DAY - 1,
        author: 'concierge',
        status: 'in_progress',
        body:
          'I have started the return online and printed the label. A courier will pick the box ' +
          'up from your front door on Thursday between 9 am and noon.',
      },
    ],
  },
  {
    email: 'member@example.com',
    categoryId: 'finance-and-legal',
    title: 'Compare car insurance before the renewal',
    details:
      'My car insurance renews on the 1st and the new premium went up by almost 20%. Could you ' +
      'get a few comparable quotes? Same cover, one driver, no claims.',
    hoursAgo: 21 * DAY,
    events: [
      {
        hoursAgo: 21 * DAY - 4,
        author: 'concierge',
        status: 'in_progress',
        body: 'On it. I will ask three insurers for quotes with your current cover.',
      },
      {
        hoursAgo: 17 * DAY,
        author: 'concierge',
        body:
          'Quotes are in: your current insurer $1,284 a year, Harbor Mutual $1,092, Keystone ' +
          '$1,150. Harbor Mutual has the same deductible and adds roadside assistance.',
      },
      {
        hoursAgo: 16 * DAY,
        author: 'member',
        body: 'Harbor Mutual sounds good. Please go ahead.',
      },
      {
        hoursAgo: 14 * DAY,
        author: 'concierge',
        status: 'completed',
        body:
          'Done: your Harbor Mutual policy starts on the 1st, and the old one is cancelled from ' +
          'the same day, with no gap. The documents are in your email.',
      },
    ],
  },
  {
    email: 'member@example.com',
    categoryId: 'family-and-care',
    title: 'After-school care on Thursdays',
    details:
      'We need someone to pick up our son from school on Thursdays and stay with him until ' +
      '6:30 pm, starting next month. His school schedule is attached.',
    hoursAgo: 30 * DAY,
    file: SCHOOL_SCHEDULE,
    events: [
      {
        hoursAgo: 30 * DAY - 5,
        author: 'concierge',
        status: 'in_progress',
        body: 'Thank you, that schedule helps. I am contacting two agencies with vetted sitters.',
      },
      {
        hoursAgo: 27 * DAY,
        author: 'concierge',
        status: 'completed',
        body:
          'Maya from Little Oaks Care will pick him up every Thursday, starting on the 5th. She ' +
          'has your number and the school has her on the pick-up list.',
      },
    ],
  },
  {
    email: 'member@example.com',
    categoryId: 'everyday-errands',
    title: 'Birthday gift for my sister',
    details: 'She turns 40 next week and loves gardening. Budget around $80.',
    hoursAgo: 12 * DAY,
    events: [
      {
        hoursAgo: 12 * DAY - 2,
        author: 'concierge',
        status: 'in_progress',
        body: 'What a nice one to work on. I will send you three ideas by tomorrow.',
      },
      {
        hoursAgo: 11 * DAY,
        author: 'member',
        status: 'cancelled',
        body: '',
      },
    ],
  },
  {
    email: 'verified@example.com',
    categoryId: 'travel',
    title: 'Hotel in Chicago for two nights',
    details: 'Near the Loop, from the 22nd to the 24th, for a work trip. Under $250 a night.',
    hoursAgo: 5,
    events: [],
  },
  {
    email: 'verified@example.com',
    categoryId: 'finance-and-legal',
    title: 'A notary for the house papers',
    details: 'We need two documents notarized this week, ideally at home in the evening.',
    hoursAgo: 2 * DAY,
    events: [
      {
        hoursAgo: 2 * DAY - 2,
        author: 'concierge',
        status: 'waiting_on_member',
        body:
          'A mobile notary can come on Wednesday or Thursday at 7 pm ($75). Which evening suits ' +
          'you, and will both owners be there?',
      },
    ],
  },
  {
    email: 'verified@example.com',
    categoryId: 'home-and-moving',
    title: 'Plumber for the kitchen sink',
    details: 'The kitchen sink drains very slowly and the trap drips.',
    hoursAgo: 9 * DAY,
    events: [
      {
        hoursAgo: 9 * DAY - 1,
        author: 'concierge',
        status: 'in_progress',
        body: 'Booked Reliable Plumbing for tomorrow between 8 and 10 am.',
      },
      {
        hoursAgo: 8 * DAY,
        author: 'concierge',
        status: 'completed',
        body: 'The plumber cleared the drain and replaced the trap washer. Invoice paid: $140.',
      },
    ],
  },
];

/** Arbitrary but fixed, like the lock of seedDemoData, for the requests. */
const SEED_REQUESTS_LOCK_ID = 7_310_254_120;

/**
 * Makes sure the demo members have their demo requests (DEMO_REQUESTS: every status, several
 * categories, timelines, files), dated relative to now. A request is known by its member and
 * title: running it again adds only what is missing, and writes back any demo file that storage
 * no longer holds (e.g. a new storage directory on an old database). Members that do not exist
 * (seedDemoData not run) are skipped.
 */
export async function seedDemoRequests(
  database: Database,
  clock: Clock,
  storage: FileStorage,
): Promise<void> {
  const now = clock.now().getTime();
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);

  await database.transaction(async (transaction) => {
    await transaction.execute(sql`SELECT pg_advisory_xact_lock(${SEED_REQUESTS_LOCK_ID})`);

    const attach = async (
      file: DemoFile,
      owner: { userId: number; requestId: string; requestUpdateId: string },
      createdAt: Date,
    ) => {
      const key = newStorageKey();
      await storage.write(key, file.content, file.contentType);
      await transaction.insert(blobs).values({
        ...owner,
        key,
        filename: file.filename,
        contentType: file.contentType,
        byteSize: file.content.byteLength,
        checksum: createHash('sha256').update(file.content).digest('base64'),
        createdAt,
        uploadedAt: createdAt,
      });
    };

    for (const demo of DEMO_REQUESTS) {
      const [user] = await transaction
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, demo.email));
      if (!user) continue;
      const [existing] = await transaction
        .select({ id: requests.id })
        .from(requests)
        .where(and(eq(requests.userId, user.id), eq(requests.title, demo.title)))
        .limit(1);
      if (existing) {
        await restoreMissingFiles(transaction, storage, existing.id, demo);
        continue;
      }

      const statusChanges = demo.events.filter((event) => event.status !== undefined);
      const lastEvent = demo.events.at(-1);
      const [request] = await transaction
        .insert(requests)
        .values({
          userId: user.id,
          categoryId: demo.categoryId,
          title: demo.title,
          details: demo.details,
          status: statusChanges.at(-1)?.status ?? 'submitted',
          createdAt: at(demo.hoursAgo),
          updatedAt: at(lastEvent?.hoursAgo ?? demo.hoursAgo),
        })
        .returning({ id: requests.id });
      if (!request) throw new Error(`Could not create the demo request "${demo.title}".`);

      const creation: DemoEvent = {
        hoursAgo: demo.hoursAgo,
        author: 'member',
        body: '',
        ...(demo.file ? { file: demo.file } : {}),
      };
      const entries = [creation, ...demo.events];
      for (const [index, entry] of entries.entries()) {
        const createdAt = at(entry.hoursAgo);
        const [update] = await transaction
          .insert(requestUpdates)
          .values({
            requestId: request.id,
            kind: index === 0 ? 'created' : entry.status ? 'status_changed' : 'note',
            author: entry.author,
            body: entry.body,
            status: entry.status ?? null,
            createdAt,
          })
          .returning({ id: requestUpdates.id });
        if (!update) throw new Error(`Could not create the timeline of "${demo.title}".`);
        if (entry.file) {
          await attach(
            entry.file,
            { userId: user.id, requestId: request.id, requestUpdateId: update.id },
            createdAt,
          );
        }
      }
    }
  });
}

/** Writes back the demo files of a seeded request that storage no longer holds. */
async function restoreMissingFiles(
  transaction: Database,
  storage: FileStorage,
  requestId: string,
  demo: DemoRequest,
): Promise<void> {
  const demoFiles = [demo.file, ...demo.events.map((event) => event.file)].filter(
    (file): file is DemoFile => file !== undefined,
  );
  if (demoFiles.length === 0) return;
  const stored = await transaction
    .select({ key: blobs.key, filename: blobs.filename })
    .from(blobs)
    .where(eq(blobs.requestId, requestId));
  for (const { key, filename } of stored) {
    const file = demoFiles.find((candidate) => candidate.filename === filename);
    if (file && (await storage.stat(key)) === undefined) {
      await storage.write(key, file.content, file.contentType);
    }
  }
}
