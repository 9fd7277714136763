import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { PHOTO_NOT_AN_IMAGE, PHOTO_SIDE, PHOTO_UPLOAD_TYPES } from '@pf/events';
import { Invalid } from '@pf/infra';

/** Far beyond any camera's photo, far below what would take the server's memory (a "decompression bomb"). */
const MAX_INPUT_PIXELS = 50_000_000;

/**
 * The photo as stored: its bytes must be a JPG, PNG or GIF by their signature (whatever the file is called or
 * declared as) and must decode as one; it is then turned upright, cropped to a square from its centre and
 * resized to PHOTO_SIDE pixels, as WebP. Only the first frame of an animated GIF is kept. Anything else is
 * refused with the reason (docs/behaviour/settings.md, "Profile photo").
 */
export async function resizePhoto(upload: Buffer): Promise<Buffer> {
  const found = await fileTypeFromBuffer(upload);
  if (!found || !(PHOTO_UPLOAD_TYPES as readonly string[]).includes(found.mime)) throw new Invalid(PHOTO_NOT_AN_IMAGE);
  try {
    return await sharp(upload, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(PHOTO_SIDE, PHOTO_SIDE, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    // A JPG, PNG or GIF signature in front of bytes that do not decode (a truncated or forged file).
    throw new Invalid(`${PHOTO_NOT_AN_IMAGE.split('.')[0]}: it could not be read as one. Choose a JPG, PNG or GIF of at most 5 MB.`);
  }
}
