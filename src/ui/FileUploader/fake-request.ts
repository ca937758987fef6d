/**
 * A stand-in XMLHttpRequest for unit tests: records what it was asked and lets the test drive
 * progress and the end of the upload. Only tests import it.
 */
type Listener = (event: { lengthComputable?: boolean; loaded?: number; total?: number }) => void;

export class FakeRequest {
  /** Every request made since the last reset, newest last. */
  static instances: FakeRequest[] = [];
  method = '';
  url = '';
  headers: [string, string][] = [];
  body: unknown;
  withCredentials = true;
  timeout = 99;
  status = 0;
  statusText = '';
  responseText = '';
  responseType = '';
  aborted = false;
  private listeners = new Map<string, Listener[]>();
  private uploadListeners = new Map<string, Listener[]>();
  constructor() {
    FakeRequest.instances.push(this);
  }
  upload = {
    addEventListener: (type: string, listener: Listener) => {
      this.uploadListeners.set(type, [...(this.uploadListeners.get(type) ?? []), listener]);
    },
  };
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers.push([name, value]);
  }
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.fire('abort');
  }
  fire(type: string, event = {}) {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  progress(loaded: number, total: number) {
    for (const listener of this.uploadListeners.get('progress') ?? []) {
      listener({ lengthComputable: true, loaded, total });
    }
  }
  finish(status: number, statusText = '', responseText = '') {
    this.status = status;
    this.statusText = statusText;
    this.responseText = responseText;
    this.fire('load');
  }
}
