/** What a sign-in route answers: a page, or a redirect; either may set cookies. */
export type SignInOutcome =
  | { kind: 'page'; status: number; html: string; cookies: string[] }
  | { kind: 'redirect'; location: string; cookies: string[] };

/** The browser's side of a sign-in route: its cookies, its address, the form or query. */
export interface BrowserRequest {
  cookieHeader: string | undefined;
  address: string;
  fields: Record<string, unknown>;
}
