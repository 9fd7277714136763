import { Button, DialogFooter, Intent } from '@blueprintjs/core';

/** A form dialog's footer: Cancel, and the submit button that shows the call in flight. */
export function SubmitFooter({ submitText, busy, onCancel }: { submitText: string; busy: boolean; onCancel: () => void }) {
  return (
    <DialogFooter
      actions={
        <>
          <Button text="Cancel" onClick={onCancel} />
          <Button type="submit" intent={Intent.PRIMARY} text={submitText} loading={busy} />
        </>
      }
    />
  );
}
