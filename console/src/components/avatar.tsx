import type { ReactNode } from 'react';

/** Where a profile photo is read from (docs/behaviour/settings.md, "Profile photo"). */
const photoUrl = (photoId: string) => `/api/auth/photos/${photoId}`;

interface Props {
  /** The person's current photo, or none: their initials are drawn instead. */
  photoId: string | null | undefined;
  initials: ReactNode;
  /** Whose photo, for the label of a photo drawn alone; left out beside the person's written name. */
  label?: string;
  className?: string;
}

/** A person's round avatar: their photo when they have one, else their initials. */
export function Avatar({ photoId, initials, label, className = '' }: Props) {
  if (photoId) {
    return (
      <img className={`pf-avatar pf-avatar-photo ${className}`} src={photoUrl(photoId)} alt={label ?? ''} data-testid="avatar-photo" />
    );
  }
  return (
    <div className={`pf-avatar ${className}`} aria-hidden>
      {initials}
    </div>
  );
}
