import { z } from 'zod';

/**
 * Settings → Profile → Change Photo (docs/behaviour/settings.md, "Profile photo"): a JPG, PNG or GIF of at most
 * 5 MB, judged by its bytes (never its name or declared type), decoded and resized by the server. The stored
 * photo is the resized one; its event records its id and SHA-256, never its bytes.
 */
export const PHOTO_UPLOAD_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
/** The side of the square the photo is stored at: twice the largest size the console draws it (sidebar, 40 px). */
export const PHOTO_SIDE = 128;
/** What the console says beside Change Photo, in the specification's words. */
export const PHOTO_HINT = 'JPG, PNG or GIF. Max size of 5MB.';
export const PHOTO_TOO_LARGE = 'That file is larger than 5 MB. Choose a JPG, PNG or GIF of at most 5 MB.';
export const PHOTO_NOT_AN_IMAGE = 'That file is not a JPG, PNG or GIF image. Choose a JPG, PNG or GIF of at most 5 MB.';

export const photoChangedAnswer = z.object({ photoId: z.uuid().nullable() });
export type PhotoChangedAnswer = z.infer<typeof photoChangedAnswer>;
export const photoFile = z.unknown().describe('The photo itself: image/webp, 128 × 128');
export const photoParams = z.object({ photoId: z.uuid({ error: 'Photo id must be a UUID' }) });

export const photoCommand = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('ChangeProfilePhoto'),
    userId: z.string(),
    photo: z.object({ photoId: z.uuid(), sha256: z.string(), size: z.number().int() }),
  }),
  z.object({ type: z.literal('RemoveProfilePhoto'), userId: z.string() }),
]);
export type PhotoCommand = z.infer<typeof photoCommand>;

/** The languages offered, named in their own words (the stored value stays the code). */
export const LANGUAGE_NAMES = { en: 'English', fr: 'Français', de: 'Deutsch', es: 'Español' } as const;
