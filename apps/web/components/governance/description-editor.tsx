'use client';
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
  return (
    <Tabs defaultValue="write" className="flex flex-col gap-2">
      <TabsList aria-label="Description">
        <TabsTrigger value="write">Write</TabsTrigger>
        <TabsTrigger value="preview">Preview</TabsTrigger>
      </TabsList>
      <TabsContent value="write" forceMount className="data-[state=inactive]:hidden">
        <TextAreaField
          label="Description"
          name="description"
          rows={8}
          maxLength={20000}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          errors={errors}
          hint={
            <span id={`${id}-hint`} className="text-xs text-muted-foreground">
              Markdown: **bold**, lists, links, tables. HTML is shown as text.
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
          <p className="text-sm text-muted-foreground">Nothing to preview yet.</p>
        )}
      </TabsContent>
    </Tabs>
  );
}
