import { Button, FormGroup, HTMLSelect, InputGroup, Intent, TextArea } from '@blueprintjs/core';
import { LANGUAGE_NAMES, LANGUAGES, PROFILE_ROLES, profileInput, TIMEZONES, type ProfileView } from '@pf/events';
import { useState, type FormEvent } from 'react';
import { useStateFrom } from '../../../lib/use-state-from';
import { ApiError } from '../../../lib/api-client';
import { fieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { toastError, toastSuccess } from '../../../lib/toaster';
import { useUser } from '../../../lib/current-user';
import { useSaveProfile } from '../api/settings';
import { ProfilePhoto } from './profile-photo';

type Values = Record<keyof ProfileView, string>;
const TEXT_FIELDS: [keyof ProfileView, string, string][] = [
  ['firstName', 'First name', 'text'],
  ['lastName', 'Last name', 'text'],
  ['email', 'Email', 'email'],
  ['phone', 'Phone', 'tel'],
  ['company', 'Company', 'text'],
  ['address', 'Address', 'text'],
];

const toValues = (profile: ProfileView): Values =>
  Object.fromEntries(Object.entries(profile).map(([key, value]) => [key, value ?? ''])) as Values;

/** Settings → Profile (docs/behaviour/settings.md): validated with the shared schema, saved as an event; the sidebar follows. */
export function ProfileTab({ profile }: { profile: ProfileView }) {
  const [values, setValues] = useStateFrom<Values>(() => toValues(profile), [profile]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveProfile();
  const user = useUser();
  const set = (key: keyof ProfileView, value: string) => setValues((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = { ...values, role: values.role || null };
    const parsed = profileInput.safeParse(input);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    try {
      await save.mutateAsync(input as Parameters<typeof save.mutateAsync>[0]);
      toastSuccess('Your profile has been saved', 'Profile updated');
    } catch (error) {
      toastError(error instanceof ApiError ? error.message : 'Could not save your profile');
    }
  };

  const field = (key: keyof ProfileView, label: string, type: string) => (
    <FormGroup
      key={key}
      label={label}
      labelFor={`profile-${key}`}
      intent={errors[key] ? Intent.DANGER : Intent.NONE}
      helperText={errors[key]}
    >
      <InputGroup
        id={`profile-${key}`}
        type={type}
        value={values[key]}
        intent={errors[key] ? Intent.DANGER : Intent.NONE}
        onValueChange={(v) => set(key, v)}
      />
    </FormGroup>
  );

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="pf-settings-form">
      <ProfilePhoto user={user.data} />
      <div className="pf-grid pf-grid-2">{TEXT_FIELDS.map(([key, label, type]) => field(key, label, type))}</div>
      <div className="pf-grid pf-grid-3">
        <FormGroup label="Role" labelFor="profile-role">
          <HTMLSelect id="profile-role" fill value={values.role} onChange={(e) => set('role', e.currentTarget.value)}>
            <option value="">Not set</option>
            {PROFILE_ROLES.map((role) => (
              <option key={role} value={role}>
                {role.charAt(0).toUpperCase() + role.slice(1)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label="Timezone" labelFor="profile-timezone" helperText="Every time in the console is shown in this zone">
          <HTMLSelect id="profile-timezone" fill value={values.timezone} onChange={(e) => set('timezone', e.currentTarget.value)}>
            {TIMEZONES.map((zone) => (
              <option key={zone}>{zone}</option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup
          label="Language"
          labelFor="profile-language"
          helperText="Dates and times are written this way; the console's words stay English"
        >
          <HTMLSelect id="profile-language" fill value={values.language} onChange={(e) => set('language', e.currentTarget.value)}>
            {LANGUAGES.map((language) => (
              <option key={language} value={language}>
                {LANGUAGE_NAMES[language]}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      </div>
      <FormGroup label="Bio" labelFor="profile-bio" intent={errors.bio ? Intent.DANGER : Intent.NONE} helperText={errors.bio}>
        <TextArea id="profile-bio" fill value={values.bio} onChange={(e) => set('bio', e.currentTarget.value)} />
      </FormGroup>
      <Button type="submit" intent={Intent.PRIMARY} icon="floppy-disk" loading={save.isPending} text="Save Changes" />
    </form>
  );
}
