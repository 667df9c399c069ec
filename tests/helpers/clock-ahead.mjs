/* global process */
// Loaded with `node --import` into a server started by a test: its clock runs
// CLOCK_AHEAD_DAYS days ahead (Date and Date.now), so its sweeper sees uploads and Trash
// records as that much older. Timers are not affected.
const offset = Number(process.env.CLOCK_AHEAD_DAYS) * 24 * 3600 * 1000;
const RealDate = globalThis.Date;
class AheadDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }
  static now() {
    return RealDate.now() + offset;
  }
}
globalThis.Date = AheadDate;
