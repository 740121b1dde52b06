// The part of dmn-js's API the Studio uses (dmn-js ships no types).
declare module 'dmn-js/lib/Modeler' {
  export interface DmnView {
    id: string;
    type: 'drd' | 'decisionTable' | 'literalExpression' | 'boxedExpression' | string;
    element: { id: string; name?: string };
  }
  export interface DmnViewer {
    on(event: string, callback: (event: any) => void): void;
    /** strict false: null when the viewer has no such service (a read-only viewer has no commandStack). */
    get<T = any>(service: string, strict?: boolean): T;
  }
  export default class DmnModeler {
    constructor(options: { container?: HTMLElement; [option: string]: unknown });
    importXML(xml: string): Promise<{ warnings: unknown[] }>;
    saveXML(options?: { format?: boolean }): Promise<{ xml: string }>;
    getViews(): DmnView[];
    getActiveView(): DmnView | undefined;
    getActiveViewer(): DmnViewer | undefined;
    open(view: DmnView): Promise<unknown>;
    on(event: string, callback: (event: any) => void): void;
    destroy(): void;
  }
}
declare module 'dmn-js/lib/Viewer' {
  import DmnModeler from 'dmn-js/lib/Modeler';
  export default DmnModeler;
}
