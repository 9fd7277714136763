/**
 * Dates and times as the signed-in person chose them in Settings → Profile: in their timezone, written the
 * way their language writes them ("dates and times in the local format"; the console's own words
 * stay English). Set once the profile is read (features/settings DisplaySettings), and read by every screen
 * that shows a time. Before that, or signed out: the browser's zone, British English.
 */
const LOCALES: Record<string, string> = { en: 'en-GB', fr: 'fr-FR', de: 'de-DE', es: 'es-ES' };

let timeZone: string | undefined;
let locale = 'en-GB';

export function setDisplay(settings: { timezone: string; language: string }): void {
  timeZone = settings.timezone;
  locale = LOCALES[settings.language] ?? 'en-GB';
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

const at = (iso: string | number | Date) => (iso instanceof Date ? iso : new Date(iso));

/** "23 Nov 2026, 18:05" in the person's zone. */
export const formatDateTime = (
  iso: string | number | Date,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
) => at(iso).toLocaleString(locale, { ...options, timeZone });

/** "18:05:12" in the person's zone. */
export const formatTime = (
  iso: string | number | Date,
  options: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit' },
) => at(iso).toLocaleTimeString(locale, { ...options, timeZone });

/** "23/11/2026" in the person's zone. */
export const formatDate = (iso: string | number | Date, options: Intl.DateTimeFormatOptions = {}) =>
  at(iso).toLocaleDateString(locale, { ...options, timeZone });
