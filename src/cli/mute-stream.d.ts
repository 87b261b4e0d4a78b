// mute-stream ships no types: the part of its API the runner uses.
declare module 'mute-stream' {
  import { Duplex } from 'node:stream';

  class MuteStream extends Duplex {
    constructor(options?: { replace?: string; prompt?: string });
    readonly muted: boolean;
    /** Drops (or, with `replace`, masks) everything written until `unmute`. */
    mute(): void;
    unmute(): void;
  }
  export = MuteStream;
}
