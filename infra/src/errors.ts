/**
 * Domain errors: typed values that the edges (HTTP, socket) map to answers in one place.
 * Messages are written for the person who sent the request.
 */
export class DomainError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFound extends DomainError {
  constructor(message = 'Not found') {
    super(message, 404);
  }
}

export class Invalid extends DomainError {
  constructor(message: string) {
    super(message, 400);
  }
}

export class Forbidden extends DomainError {
  constructor(message = 'Forbidden') {
    super(message, 403);
  }
}

export class ConcurrencyConflict extends DomainError {
  constructor(
    readonly stream: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`${stream} was changed by someone else (expected version ${expected}, found ${actual}); reload and try again`, 409);
  }
}

/** The request conflicts with how things stand (someone else already did it), not with a stream version. */
export class Conflict extends DomainError {
  constructor(message: string) {
    super(message, 409);
  }
}

/** The client's If-Match names a version the aggregate is no longer at. */
export class PreconditionFailed extends DomainError {
  constructor(message: string) {
    super(message, 412);
  }
}

export class NotCaughtUp extends DomainError {
  constructor(position: string, waitedMs: number) {
    super(`The read models have not reached position ${position} within ${waitedMs / 1000} s; try again`, 503);
  }
}

export class Unauthenticated extends DomainError {
  constructor(message = 'Unauthorized') {
    super(message, 401);
  }
}
