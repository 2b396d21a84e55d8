// How the time clock screens say times: one 24-hour format everywhere, whatever the device's
// locale: "17:02", dates "2026-11-23", a day and time "Mon 2026-11-23 17:02". Local time zone.

const pad = (n: number) => String(n).padStart(2, '0');
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** HH:mm on 24 hours. */
export const clockTime = (iso: string): string => {
  const d = new Date(iso);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** YYYY-MM-DD. */
export const isoDate = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The weekday, short ("Mon"). */
export const weekday = (d: Date): string => WEEKDAYS[d.getDay()]!;

/** "Mon 2026-11-23 17:02": the day, the date and the time. */
export const dayTime = (iso: string): string => {
  const d = new Date(iso);
  return `${weekday(d)} ${isoDate(d)} ${clockTime(iso)}`;
};

/** The field's text for an instant: "2026-11-23 17:02" (local time, minutes). */
export const toLocalInput = (d: Date): string => `${isoDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;

/**
 * The instant of a typed "YYYY-MM-DD HH:mm" (a "T" between works too), as ISO text; null when it is
 * not one, or not a real date (2026-02-30, 24:00).
 */
export const fromLocalInput = (value: string): string | null => {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})\s*$/.exec(value);
  if (!m) return null;
  const [y, mo, da, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const d = new Date(y, mo - 1, da, h, mi);
  if (d.getFullYear() !== y || d.getMonth() !== mo - 1 || d.getDate() !== da || d.getHours() !== h || d.getMinutes() !== mi) return null;
  return d.toISOString();
};
