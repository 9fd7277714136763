import type { EventOf, PhotoCommand } from '@pf/events';
import { NotFound } from '@pf/infra';
import type { Decider } from '../../handle-command';

export type PhotoEvent = EventOf<'ProfilePhotoChanged' | 'ProfilePhotoRemoved' | 'AccountDeleted'>;

export interface PhotoState {
  deleted: boolean;
  photoId: string | null;
}

/**
 * A person's profile photo as events on their user-{id} stream, beside their settings (user.ts). The bytes are
 * checked, resized and kept by the route (docs/behaviour/settings.md, "Profile photo"); this records which photo
 * is current. Removing a photo one does not have records nothing.
 */
function decide(command: PhotoCommand, state: PhotoState): PhotoEvent[] {
  if (state.deleted) throw new NotFound('This account has been deleted');
  const { userId } = command;
  switch (command.type) {
    case 'ChangeProfilePhoto': {
      const { photoId, sha256, size } = command.photo;
      return [{ type: 'ProfilePhotoChanged', data: { userId, photoId, sha256, size, contentType: 'image/webp' } }];
    }
    case 'RemoveProfilePhoto':
      return state.photoId ? [{ type: 'ProfilePhotoRemoved', data: { userId, photoId: state.photoId } }] : [];
    default: {
      const unhandled: never = command;
      throw new Error(`Unknown command ${JSON.stringify(unhandled)}`);
    }
  }
}

function evolve(state: PhotoState, event: PhotoEvent): PhotoState {
  switch (event.type) {
    case 'ProfilePhotoChanged':
      return { ...state, photoId: event.data.photoId };
    case 'ProfilePhotoRemoved':
      return { ...state, photoId: null };
    case 'AccountDeleted':
      return { ...state, deleted: true };
    default:
      return state;
  }
}

export const photoDecider: Decider<PhotoCommand, PhotoState, PhotoEvent> = {
  initialState: { deleted: false, photoId: null },
  decide,
  evolve,
};
