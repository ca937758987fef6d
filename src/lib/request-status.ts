/** The statuses of a request, in the order a request moves through them. */
export const requestStatuses = [
  'submitted',
  'in_progress',
  'waiting_on_member',
  'completed',
  'cancelled',
] as const;

export type RequestStatus = (typeof requestStatuses)[number];

/** How each status reads to the member: "waiting on member" is addressed to them. */
const requestStatusLabels: Readonly<Record<RequestStatus, string>> = {
  submitted: 'Submitted',
  in_progress: 'In progress',
  waiting_on_member: 'Waiting on you',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

/** Open requests are still being worked on; closed ones are done with. */
const openRequestStatuses: readonly RequestStatus[] = [
  'submitted',
  'in_progress',
  'waiting_on_member',
];

export function isRequestStatus(value: string): value is RequestStatus {
  return (requestStatuses as readonly string[]).includes(value);
}

export function requestStatusLabel(status: RequestStatus): string {
  return requestStatusLabels[status];
}

export function isOpenRequestStatus(status: RequestStatus): boolean {
  return openRequestStatuses.includes(status);
}
