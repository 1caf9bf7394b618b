import { Icon, type IconProps } from '../../../components/ui/icons.tsx';

// Drawn here rather than in components/ui/icons.tsx: that module is in the first load, and these
// three are only needed once the basket opens.
export const PlusIcon = (props: IconProps) => (
  <Icon size={18} {...props}>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);

export const MinusIcon = (props: IconProps) => (
  <Icon size={18} {...props}>
    <path d="M5 12h14" />
  </Icon>
);

export const TrashIcon = (props: IconProps) => (
  <Icon size={18} {...props}>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
  </Icon>
);
