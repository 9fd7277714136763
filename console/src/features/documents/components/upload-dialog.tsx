import { Callout, Dialog, DialogBody, FileInput, FormGroup, InputGroup, Intent } from '@blueprintjs/core';
import { DOCUMENT_TYPES, MAX_DOCUMENT_BYTES, type DocumentType } from '@pf/events';
import { useState, type FormEvent } from 'react';
import { ChoiceField } from '../../../components/choice-field';
import { SearchedSelect } from '../../../components/searched-select';
import { failureReason } from '../../../lib/api-client';
import { toastSuccess } from '../../../lib/toaster';
import { dealChoices, dealChoicesKey, useUpload } from '../api/documents';
import { SubmitFooter } from '../../../components/submit-footer';

/** Upload Document: a PDF, JPEG or PNG of at most 10 MB for one of the user's deals (the server judges the bytes). */
export function UploadDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const [dealId, setDealId] = useState('');
  const [type, setType] = useState<DocumentType>('valuation');
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useUpload();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!dealId) return setError('dealId: choose the deal the document belongs to');
    if (!file) return setError('file: choose a PDF, JPEG or PNG file to upload');
    if (file.size > MAX_DOCUMENT_BYTES) return setError('file: The file is larger than 10 MB, the most a document may be');
    const form = new FormData();
    form.append('dealId', dealId);
    form.append('type', type);
    if (name.trim()) form.append('name', name.trim());
    form.append('file', file, file.name);
    setError(null);
    try {
      await upload.mutateAsync(form);
      toastSuccess('Document uploaded');
      setFile(null);
      setName('');
      onClose();
    } catch (failure) {
      setError(failureReason(failure));
    }
  };

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title="Upload Document" className="pf-wide-dialog">
      <form onSubmit={(event) => void submit(event)}>
        <DialogBody>
          <SearchedSelect
            id="document-deal"
            label="Deal"
            noun="deals"
            none="Choose a deal"
            value={dealId}
            onChange={setDealId}
            queryKey={dealChoicesKey}
            fetchChoices={dealChoices}
            enabled={isOpen}
          />
          <ChoiceField id="document-type" label="Type" value={type} options={DOCUMENT_TYPES} onChange={setType} />
          <FormGroup label="Name (optional)" labelFor="document-name" helperText="The file's own name is used when empty">
            <InputGroup id="document-name" value={name} onValueChange={setName} />
          </FormGroup>
          <FormGroup label="File" labelFor="document-file" helperText="PDF, JPEG or PNG, at most 10 MB">
            <FileInput
              fill
              text={file ? file.name : 'Choose file...'}
              inputProps={{ id: 'document-file', accept: 'application/pdf,image/jpeg,image/png' }}
              onInputChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
            />
          </FormGroup>
          {error ? <Callout intent={Intent.DANGER}>{error}</Callout> : null}
        </DialogBody>
        <SubmitFooter submitText="Upload" busy={upload.isPending} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
