import { Intent, OverlayToaster, Position, type Toaster } from '@blueprintjs/core';

/**
 * The one toaster (druid's singletons/toaster.ts). Spec §9: one toast at a time, shown for 5 s.
 * Error toasts are destructive in style (Intent.DANGER).
 */
let toaster: Promise<Toaster> | null = null;

function getToaster(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({ position: Position.TOP_RIGHT, maxToasts: 1 });
  return toaster;
}

export interface ToastOptions {
  title?: string;
  description: string;
  variant?: 'default' | 'destructive' | 'success';
}

export function showToast({ title, description, variant = 'default' }: ToastOptions): void {
  const intent = variant === 'destructive' ? Intent.DANGER : variant === 'success' ? Intent.SUCCESS : Intent.NONE;
  const message = title ? `${title}: ${description}` : description;
  void getToaster().then((t) => t.show({ message, intent, timeout: 5000 }));
}

export const toastError = (description: string, title?: string) =>
  showToast(title ? { title, description, variant: 'destructive' } : { description, variant: 'destructive' });
export const toastSuccess = (description: string, title?: string) =>
  showToast(title ? { title, description, variant: 'success' } : { description, variant: 'success' });
