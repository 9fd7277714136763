import { useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { LiveConnection, socketUrl } from './live-connection';

const LiveContext = createContext<LiveConnection | null>(null);

/** Opens the live socket for the signed-in screens and closes it on leaving them. */
export function LiveProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [connection] = useState(() => new LiveConnection(queryClient, socketUrl(window.location)));
  useEffect(() => {
    connection.start();
    return () => connection.stop();
  }, [connection]);
  return <LiveContext.Provider value={connection}>{children}</LiveContext.Provider>;
}

export function useLive(): LiveConnection {
  const connection = useContext(LiveContext);
  if (!connection) throw new Error('useLive needs a LiveProvider');
  return connection;
}

export type LiveStatus = 'connecting' | 'open' | 'reconnecting';

export function useLiveStatus(): LiveStatus {
  const connection = useLive();
  return useSelector(connection.actor, (snapshot) =>
    snapshot.matches({ live: 'open' }) ? 'open' : snapshot.matches('reconnecting') ? 'reconnecting' : 'connecting',
  );
}

/** Follows a conversation on the socket while the calling component is mounted. */
export function useFollowConversation(conversationId: number | null): void {
  const connection = useLive();
  useEffect(() => (conversationId === null ? undefined : connection.follow(conversationId)), [connection, conversationId]);
}
