import * as RadixSelect from '@radix-ui/react-select';
import type { ReactNode } from 'react';
import { CheckIcon, ChevronDownIcon } from './more-icons.tsx';
import styles from './select.module.css';

export interface SelectOption {
  value: string;
  label: string;
  icon?: ReactNode;
}

interface SelectProps {
  label: string;
  value: string;
  options: readonly SelectOption[];
  onValueChange: (value: string) => void;
  testId?: string;
}

/** A labelled Radix Select: keyboard, typeahead and screen-reader behaviour come from the primitive. */
export function Select({ label, value, options, onValueChange, testId }: SelectProps) {
  const selected = options.find((option) => option.value === value);
  return (
    <div className={styles.field}>
      <span className={styles.label} aria-hidden="true">
        {label}
      </span>
      <RadixSelect.Root value={value} onValueChange={onValueChange}>
        <RadixSelect.Trigger className={styles.trigger} aria-label={label} data-testid={testId}>
          <span className={styles.value}>
            {selected?.icon}
            <RadixSelect.Value>{selected?.label}</RadixSelect.Value>
          </span>
          <RadixSelect.Icon className={styles.chevron}>
            <ChevronDownIcon size={16} />
          </RadixSelect.Icon>
        </RadixSelect.Trigger>
        <RadixSelect.Portal>
          <RadixSelect.Content className={styles.content} position="popper" sideOffset={6}>
            <RadixSelect.Viewport className={styles.viewport}>
              {options.map((option) => (
                <RadixSelect.Item key={option.value} value={option.value} className={styles.item}>
                  {option.icon}
                  <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                  <RadixSelect.ItemIndicator className={styles.indicator}>
                    <CheckIcon size={16} />
                  </RadixSelect.ItemIndicator>
                </RadixSelect.Item>
              ))}
            </RadixSelect.Viewport>
          </RadixSelect.Content>
        </RadixSelect.Portal>
      </RadixSelect.Root>
    </div>
  );
}
