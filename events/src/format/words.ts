/**
 * Words as the console shows them (docs/behaviour/console-layout.md, "Money and numbers"): a status, stage or
 * kind stored in lower case ("active", "low urgency") is written with a capital on a badge ("Active").
 */
export const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
