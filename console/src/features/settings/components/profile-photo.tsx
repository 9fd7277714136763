import { Button, Callout, Icon, Intent } from '@blueprintjs/core';
import { PHOTO_HINT, PHOTO_UPLOAD_TYPES, photoChangedAnswer, type CurrentUserView } from '@pf/events';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Avatar } from '../../../components/avatar';
import { api, failureReason } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { toastSuccess } from '../../../lib/toaster';

/**
 * Settings → Profile → Change Photo (docs/behaviour/settings.md, "Profile photo"): the server judges the file by
 * its content and says why it refuses one; that reason is shown here, under the hint.
 */
export function ProfilePhoto({ user }: { user: CurrentUserView | undefined }) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (file: File | null) => {
      if (!file) return api.delete('/api/auth/photo', photoChangedAnswer);
      const form = new FormData();
      form.append('photo', file);
      return api.postForm('/api/auth/photo', photoChangedAnswer, form);
    },
    onSuccess: async (answer) => {
      setProblem(null);
      toastSuccess(answer.photoId ? 'Your new photo is shown beside your name' : 'Your photo has been removed', 'Photo updated');
      await queryClient.invalidateQueries({ queryKey: queryKeys.user });
    },
    onError: (error) => setProblem(failureReason(error)),
  });

  return (
    <div className="pf-profile-photo">
      <Avatar photoId={user?.photoId} initials={<Icon icon="person" size={28} />} label="Your photo" className="pf-avatar-large" />
      <div>
        <input
          ref={input}
          id="profile-photo"
          type="file"
          accept={PHOTO_UPLOAD_TYPES.join(',')}
          className="pf-visually-hidden"
          tabIndex={-1}
          aria-label="Photo file"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = '';
            if (file) change.mutate(file);
          }}
        />
        <Button icon="camera" text="Change Photo" loading={change.isPending} onClick={() => input.current?.click()} />
        {user?.photoId ? (
          <Button variant="minimal" text="Remove photo" onClick={() => change.mutate(null)} disabled={change.isPending} />
        ) : null}
        <p className="pf-muted pf-small" id="profile-photo-hint">
          {PHOTO_HINT}
        </p>
        {problem ? (
          <Callout intent={Intent.DANGER} role="alert" data-testid="photo-problem" compact>
            {problem}
          </Callout>
        ) : null}
      </div>
    </div>
  );
}
