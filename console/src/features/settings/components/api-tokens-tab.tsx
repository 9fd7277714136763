import { Alert, Button, Callout, Checkbox, FormGroup, HTMLTable, InputGroup, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import {
  API_TOKEN_SCOPE_LABELS,
  API_TOKEN_SCOPES,
  mayManageMembers,
  roleRefusal,
  type ApiTokenScope,
  type ApiTokenView,
  type CreatedApiTokenView,
} from '@pf/events';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/display';
import { failureReason } from '../../../lib/api-client';
import { useUser } from '../../../lib/current-user';
import { toastError, toastFailure, toastSuccess } from '../../../lib/toaster';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from '../api/api-tokens';

function TokenRow({ token, onRevoke }: { token: ApiTokenView; onRevoke: (token: ApiTokenView) => void }) {
  return (
    <tr data-testid="api-token-row">
      <td>{token.name}</td>
      <td>
        {token.scopes.map((scope) => (
          <Tag key={scope} minimal style={{ marginRight: 4 }}>
            {API_TOKEN_SCOPE_LABELS[scope]}
          </Tag>
        ))}
      </td>
      <td>{formatDateTime(token.createdAt)}</td>
      <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never'}</td>
      <td>
        <Button small minimal intent={Intent.DANGER} icon="disable" text="Revoke" onClick={() => onRevoke(token)} />
      </td>
    </tr>
  );
}

/** The secret of a token just created: shown here once, never again (only its hash is kept). */
function NewToken({ created, onDone }: { created: CreatedApiTokenView; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.token);
      toastSuccess('The token is on your clipboard', 'Copied');
    } catch {
      toastError('Could not copy: select the token and copy it');
    }
  };
  return (
    <Callout intent={Intent.SUCCESS} title={`Token "${created.name}" created`} className="pf-section" data-testid="new-api-token">
      <p>Copy it now: it is shown only once. Give it to the job as PF_TOKEN; it is sent as "Authorization: Bearer …".</p>
      <InputGroup readOnly aria-label="New API token" value={created.token} onFocus={(event) => event.currentTarget.select()} />
      <p />
      <Button icon="duplicate" text="Copy" onClick={() => void copy()} /> <Button text="Done" onClick={onDone} />
    </Callout>
  );
}

/**
 * Settings → API tokens (docs/event-feed.md "Tokens"): machine credentials for the firm's analytics jobs. Only
 * an Admin manages them (the server refuses anyone else, in the same words as here); a token reads the firm's
 * event feed (and analytics), never the console, the live socket or any change.
 */
export function ApiTokensTab() {
  const role = useUser().data?.role;
  if (role && !mayManageMembers(role)) {
    return <NonIdealState icon="lock" title="API tokens" description={`${roleRefusal(role, 'manage API tokens')}.`} />;
  }
  return <ApiTokensManager />;
}

function ApiTokensManager() {
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiTokenScope[]>(['events:read']);
  const [created, setCreated] = useState<CreatedApiTokenView | null>(null);
  const [revoking, setRevoking] = useState<ApiTokenView | null>(null);

  if (tokens.error) return <NonIdealState icon="lock" title="API tokens" description={failureReason(tokens.error)} />;
  if (!tokens.data) return <Spinner />;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    try {
      setCreated(await create.mutateAsync({ name, scopes }));
      setName('');
    } catch (error) {
      toastFailure('Could not create the token', error);
    }
  };
  const confirmRevoke = async () => {
    if (!revoking) return;
    try {
      await revoke.mutateAsync(revoking.id);
      toastSuccess(`Jobs using "${revoking.name}" are refused from their next request`, 'Token revoked');
    } catch (error) {
      toastFailure('Could not revoke the token', error);
    }
    setRevoking(null);
  };
  const toggle = (scope: ApiTokenScope, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((s) => s !== scope)));

  return (
    <div className="pf-settings-form">
      <p>
        Tokens let your firm&apos;s analytics jobs read its event stream from <code>/api/events</code> (described at{' '}
        <a href="/docs/asyncapi.json">/docs/asyncapi.json</a>). A token never opens the console, the live socket or any change.
      </p>
      <form onSubmit={(event) => void submit(event)}>
        <FormGroup label="Token name" labelFor="api-token-name">
          <InputGroup id="api-token-name" value={name} onValueChange={setName} placeholder="Conversion funnel job" maxLength={100} />
        </FormGroup>
        <FormGroup label="Scopes">
          {API_TOKEN_SCOPES.map((scope) => (
            <Checkbox
              key={scope}
              label={API_TOKEN_SCOPE_LABELS[scope]}
              checked={scopes.includes(scope)}
              onChange={(e) => toggle(scope, e.currentTarget.checked)}
            />
          ))}
        </FormGroup>
        <Button type="submit" intent={Intent.PRIMARY} icon="key" text="Create token" loading={create.isPending} />
      </form>
      {created ? <NewToken created={created} onDone={() => setCreated(null)} /> : null}
      <h4>Tokens</h4>
      {tokens.data.length === 0 ? (
        <p>No tokens yet.</p>
      ) : (
        <HTMLTable compact striped className="pf-full-width">
          <thead>
            <tr>
              <th>Name</th>
              <th>Scopes</th>
              <th>Created</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((token) => (
              <TokenRow key={token.id} token={token} onRevoke={setRevoking} />
            ))}
          </tbody>
        </HTMLTable>
      )}
      <Alert
        isOpen={revoking !== null}
        intent={Intent.DANGER}
        icon="disable"
        confirmButtonText="Revoke"
        cancelButtonText="Cancel"
        onCancel={() => setRevoking(null)}
        onConfirm={() => void confirmRevoke()}
        loading={revoke.isPending}
      >
        <p>Revoke &quot;{revoking?.name}&quot;? Jobs using it are refused from their next request.</p>
      </Alert>
    </div>
  );
}
