/**
 * What every part of a fuzz run shares (run.ts, property.ts, socket.ts, targeted.ts and the aimed inputs): the single
 * node it aims at and the report it fills, apart from the run so that none of them imports the run that calls it.
 */

export interface FuzzRoute {
  readonly method: string;
  readonly url: string;
}

export interface FuzzTarget {
  readonly url: string;
  /** Every route the app declared (collected with an onRoute hook), so routes added later are covered. */
  readonly routes: readonly FuzzRoute[];
  /** A signed-in user's Cookie header. */
  readonly cookie: string;
  readonly agentIds: readonly number[];
  readonly conversationIds: readonly number[];
  /** A position the read models have passed (a valid x-after-position / resume). */
  readonly position: string;
  /** A deal of the signed-in user's firm, to upload documents to. */
  readonly dealId: string;
  /** An API token of that firm with events:read, for the event feed. */
  readonly feedToken: string;
}

export interface FuzzReport {
  seed: number;
  routes: number;
  httpInputs: number;
  /** Inputs the HTTP client itself refused to send (not counted as tried). */
  httpUnsendable: number;
  socketInputs: number;
  statusCounts: Record<string, number>;
  serverErrors: { method: string; path: string; status: number; body: string; input: string }[];
  /** Answers the client could not read (headers over undici's 16 KB): not 5xx, reported apart. */
  unreadable: { method: string; path: string; problem: string }[];
  socketServerErrors: { frame: string; message: string }[];
  socketsClosedUnexpectedly: number;
  /** Uncaught exceptions and unhandled rejections in this process while fuzzing (the server runs in it). */
  crashes: string[];
  /**
   * fast-check's report of each failed property: the shrunk (minimal) counterexample, the seed and the path
   * to replay it. Inputs run while shrinking are counted here, not among the inputs tried or the answers.
   */
  counterexamples: string[];
  shrinkRuns: number;
  /** The aimed inputs (targeted.ts) by kind: how many were tried, and how many got exactly the answer they must. */
  targeted: Record<string, { tried: number; asExpected: number }>;
}

export function emptyFuzzReport(seed: number, routes: number): FuzzReport {
  return {
    seed,
    routes,
    httpInputs: 0,
    httpUnsendable: 0,
    socketInputs: 0,
    statusCounts: {},
    serverErrors: [],
    unreadable: [],
    socketServerErrors: [],
    socketsClosedUnexpectedly: 0,
    crashes: [],
    counterexamples: [],
    shrinkRuns: 0,
    targeted: {},
  };
}
