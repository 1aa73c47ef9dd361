'use client';
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';
import { TextAreaField } from './controls';
import { Markdown } from './markdown';

/** The proposal's description in markdown: write it, or preview it as the proposal page will show it. */
export function DescriptionEditor({
  value,
  onChange,
  errors,
}: {
  value: string;
  onChange: (text: string) => void;
  errors?: string[] | undefined;
}) {
  const id = useId();
  const t = useTranslations('governance.newProposal');
  return (
    <Tabs defaultValue="write" className="flex flex-col gap-2">
      <TabsList aria-label={t('editor')}>
        <TabsTrigger value="write">{t('write')}</TabsTrigger>
        <TabsTrigger value="preview">{t('previewTab')}</TabsTrigger>
      </TabsList>
      <TabsContent value="write" forceMount className="data-[state=inactive]:hidden">
        <TextAreaField
          label={t('description')}
          name="description"
          rows={8}
          maxLength={20000}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          errors={errors}
          hint={
            <span id={`${id}-hint`} className="text-xs text-muted-foreground">
              {t('markdownHint')}
            </span>
          }
        />
      </TabsContent>
      <TabsContent
        value="preview"
        className="min-h-24 rounded-md border p-3"
        data-testid="description-preview"
      >
        {value.trim() ? (
          <Markdown>{value}</Markdown>
        ) : (
          <p className="text-sm text-muted-foreground">{t('nothing')}</p>
        )}
      </TabsContent>
    </Tabs>
  );
}
