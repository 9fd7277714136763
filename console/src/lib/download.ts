/** Saves a blob in the browser under a file name (the link is revoked once the download has started). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const historyExportUrl = (id: number, format: 'json' | 'csv') => `/api/conversations/${id}/history/export?format=${format}`;

/**
 * Saves a conversation's full history as the server exports it from the event store: JSON with every event
 * and its hash, or CSV of the messages and offers. Offered by the History screen and the conversation's Export.
 */
export async function downloadConversationHistory(id: number, format: 'json' | 'csv'): Promise<void> {
  const response = await fetch(historyExportUrl(id, format), { credentials: 'include' });
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  saveBlob(await response.blob(), `conversation-${id}-history.${format}`);
}
