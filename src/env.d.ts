/// <reference types="astro/client" />

interface ImportMetaEnv {
  /**
   * Where this build's content editor saves (`local` under `npm run dev`, `github` in a build
   * made for GitHub mode), or empty in a build without it (src/build/content-editor.mjs).
   */
  readonly CONTENT_EDITOR: '' | 'local' | 'github';
  /** The repository the content editor commits to in GitHub mode, `owner/name`; else empty. */
  readonly PUBLIC_KEYSTATIC_GITHUB_REPO: string;
}

declare namespace App {
  interface Locals {
    /** The id of this request: in its answer's `X-Request-Id`, its log lines and the error pages. */
    requestId: string;
    /** The error that made this request fail, for the error page. */
    failure?: unknown;
    /** What the cookies say about the visitor's session. */
    session: import('./server/session/session').WebSession;
    /** The API, with this visitor's credentials attached. */
    api: () => Promise<import('./server/api/client').ApiClient>;
    /** The signed double-submit token to embed in forms. */
    xsrfToken: string;
    /** How the route table resolved this request. */
    route: import('./route-matching').RouteMatch;
    /** The largest body this request may carry, for this route and this visitor. */
    bodyLimit: number;
    /** Set when an API call answered 401: where the visitor must go now (SignIn or the MFA step). */
    unauthorizedRedirect?: string;
    /** The signed-in member, on pages that need a session. */
    user?: import('./server/api/profile').CurrentUser;
    /**
     * This request signed the member out, or deleted the account: the answer tells the browser
     * to forget the site (all of it after a deletion; a remembered device survives a sign-out).
     */
    signedOut?: 'signed-out' | 'account-deleted';
    /** Toasts carried over a redirect, to show on this page. */
    flash: import('./stores/notifications').NotificationInput[];
  }
}
