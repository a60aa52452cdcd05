/**
 * Wall-clock arithmetic in a named time zone, so fixtures land on "today" wherever the tests pretend to be.
 */

/** Offset of `zone` from UTC at instant `ms`, in ms (positive east of Greenwich). */
export function zoneOffsetMs(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The instant of local midnight starting the day that contains `ms` in `zone`. */
export function startOfLocalDay(ms: number, zone: string): number {
  const local = ms + zoneOffsetMs(ms, zone);
  const midnightLocal = Math.floor(local / 86_400_000) * 86_400_000;
  // Re-read the offset at the guess: a DST change between midnight and `ms` shifts it.
  return midnightLocal - zoneOffsetMs(midnightLocal - zoneOffsetMs(ms, zone), zone);
}

/** "YYYY-MM-DD" of the local day containing `ms`. */
export function localDate(ms: number, zone: string): string {
  return new Date(ms + zoneOffsetMs(ms, zone)).toISOString().slice(0, 10);
}

/** RFC 3339 with the zone's offset, e.g. "2026-11-23T09:30:00+08:00", as the suite writes times. */
export function rfc3339(ms: number, zone: string): string {
  const offset = zoneOffsetMs(ms, zone);
  const local = new Date(Math.floor(ms / 1000) * 1000 + offset).toISOString().slice(0, 19);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset) / 60_000;
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${
    String(abs % 60).padStart(2, "0")
  }`;
}
