// How the clock says times: "Tue 17:02", in the device's locale and time zone.

export const dayTime = (iso: string, locale?: string): string => {
  const d = new Date(iso);
  return `${d.toLocaleDateString(locale, { weekday: 'short' })} ${d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', hour12: false })}`;
};

export const clockTime = (iso: string, locale?: string): string => new Date(iso).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', hour12: false });

/** A datetime-local input's value (local time, minutes) for an instant. */
export const toLocalInput = (d: Date): string => {
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
};

/** The instant of a datetime-local value, as ISO text; null when it is not a time. */
export const fromLocalInput = (value: string): string | null => {
  const t = new Date(value).getTime();
  return Number.isFinite(t) && value ? new Date(t).toISOString() : null;
};
