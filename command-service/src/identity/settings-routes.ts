import {
  agentDefaultsInput,
  agentDefaultsView,
  errorAnswers,
  preferencesInput,
  preferencesView,
  profileInput,
  profileView,
  SIGNED_IN_ERRORS,
  streams,
} from '@pf/events';
import { AccountStore, PersonalDataVault, Unauthenticated, type FastifyPluginAsyncZod, type ServiceContext } from '@pf/infra';
import { handleCommand } from '../handle-command';
import { signedIn, withPosition } from '../http-helpers';
import { savePreferences } from './preferences';
import { userDecider } from './user';

const WRITE_ERRORS = [...SIGNED_IN_ERRORS, 404, 409] as const;

/**
 * Settings → Profile, Preferences and Agent Defaults. Each save is recorded as events on the user's stream
 * (the profile sealed with their key: personal data) and applied to the account, which sign-in, the sidebar and
 * the session check read. The session timeout takes effect on the next request of every session.
 */
export const settingsRoutes: FastifyPluginAsyncZod<ServiceContext> = async (app, context) => {
  const { pool, store, sessions } = context;
  const accounts = new AccountStore(pool);
  const vault = new PersonalDataVault(pool);

  /** The account's profile; none when the account has gone (deleted while this session was still trusted): 401. */
  const profileOf = async (userId: string) => {
    const profile = await accounts.profile(userId);
    if (!profile) throw new Unauthenticated('This account no longer exists; sign in again');
    return profile;
  };

  app.get(
    '/api/auth/profile',
    { schema: { summary: 'Your profile', response: { 200: profileView, ...errorAnswers(...SIGNED_IN_ERRORS, 404) } } },
    async (request) => {
      const { user } = signedIn(request);
      return profileOf(user.id);
    },
  );

  app.put(
    '/api/auth/profile',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Save your profile (Settings → Profile)',
        body: profileInput,
        response: { 200: profileView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const profile = request.body;
      const sealedProfile = await vault.seal(user.id, profile);
      const handled = await handleCommand(
        store,
        streams.user(user.id),
        userDecider,
        { type: 'ChangeProfile', userId: user.id, profile: sealedProfile },
        metadata,
      );
      await accounts.saveProfile(user.id, profile);
      sessions.forgetUser(user.id);
      return withPosition(reply, handled.position).send(await profileOf(user.id));
    },
  );

  app.get(
    '/api/auth/preferences',
    {
      schema: {
        summary: 'Your notification preferences and session timeout',
        response: { 200: preferencesView, ...errorAnswers(...SIGNED_IN_ERRORS) },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      return accounts.preferences(user.id);
    },
  );

  app.put(
    '/api/auth/preferences',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Save your preferences: notification kinds (obeyed by the notifications) and session timeout (enforced by the server)',
        body: preferencesInput,
        response: { 200: preferencesView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const { handled, saved } = await savePreferences(context, user.id, metadata, request.body);
      return withPosition(reply, handled.position).send(saved);
    },
  );

  app.get(
    '/api/auth/agent-defaults',
    {
      schema: {
        summary: 'Your agent defaults (they pre-fill Create Agent)',
        response: { 200: agentDefaultsView, ...errorAnswers(...SIGNED_IN_ERRORS) },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      return accounts.agentDefaults(user.id);
    },
  );

  app.put(
    '/api/auth/agent-defaults',
    {
      config: { roles: 'anyone-signed-in' },
      schema: {
        summary: 'Save your agent defaults',
        body: agentDefaultsInput,
        response: { 200: agentDefaultsView, ...errorAnswers(...WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { user, metadata } = signedIn(request);
      const handled = await handleCommand(
        store,
        streams.user(user.id),
        userDecider,
        { type: 'ChangeAgentDefaults', userId: user.id, defaults: request.body },
        metadata,
      );
      await accounts.saveAgentDefaults(user.id, request.body);
      return withPosition(reply, handled.position).send(await accounts.agentDefaults(user.id));
    },
  );
};
