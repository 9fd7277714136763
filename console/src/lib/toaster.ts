import { Intent, OverlayToaster, Position, type Toaster } from '@blueprintjs/core';
import { failureReason, inWords } from './api-client';

/**
 * The one toaster (druid's singletons/toaster.ts): one toast at a time, shown for 5 s; error toasts are
 * destructive in style (Intent.DANGER). Bottom left, above the sidebar's user footer on a desktop, so it hides no
 * header badge or thread (docs/behaviour/console-layout.md).
 */
let toaster: Promise<Toaster> | null = null;

function getToaster(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({ position: Position.BOTTOM_LEFT, maxToasts: 1, className: 'pf-toaster' });
  return toaster;
}

interface ToastOptions {
  title?: string;
  description: string;
  variant?: 'default' | 'destructive' | 'success';
}

function showToast({ title, description, variant = 'default' }: ToastOptions): void {
  const intent = variant === 'destructive' ? Intent.DANGER : variant === 'success' ? Intent.SUCCESS : Intent.NONE;
  // Every text in words: an answer's raw JSON never reaches a toast (docs/behaviour/README.md "Errors").
  const message = title ? `${title}: ${inWords(description)}` : inWords(description);
  void getToaster().then((t) => t.show({ message, intent, timeout: 5000 }));
}

export const toastError = (description: string, title?: string) =>
  showToast(title ? { title, description, variant: 'destructive' } : { description, variant: 'destructive' });
export const toastSuccess = (description: string, title?: string) =>
  showToast(title ? { title, description, variant: 'success' } : { description, variant: 'success' });

/** A failed action: what failed, then why, in the server's words ("Failed to update agent status: Your role is Auditor: …"). */
export const toastFailure = (what: string, error: unknown) => toastError(failureReason(error), what);
