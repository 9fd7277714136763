import PDFDocument from 'pdfkit';
import type { EsisDocument } from './esis-content';

/**
 * The ESIS as a PDF (pdfkit, its standard Helvetica: no font files to ship). The same content and time give the
 * same bytes (the creation date is the agreement's, and pdfkit derives the file id from it), so a retry after a
 * crash stores the same file under the same checksum.
 */
export function renderEsisPdf(content: Pick<EsisDocument, 'title' | 'sections'>, producedAt: Date, lenderName: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: content.title, Author: lenderName, Creator: 'Property finance platform', CreationDate: producedAt, ModDate: producedAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('Helvetica-Bold').fontSize(15).text(content.title);
  for (const section of content.sections) {
    doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).text(section.title);
    doc.font('Helvetica').fontSize(10);
    for (const line of section.lines) doc.moveDown(0.2).text(line);
  }
  doc.end();
  return done;
}
