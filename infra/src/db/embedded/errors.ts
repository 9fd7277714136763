/** The data directory is served by another running copy of the product: the start stops with this sentence. */
export class DataDirectoryInUse extends Error {
  constructor(dataDir: string, pid: number) {
    super(
      `The data directory ${dataDir} is in use by a running copy of the product (process ${pid}); stop that one first, or start this one with another DATA_DIR`,
    );
    this.name = 'DataDirectoryInUse';
  }
}

/** The embedded server could not be started; the message says why in a sentence. */
export class EmbeddedStartFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddedStartFailed';
  }
}
