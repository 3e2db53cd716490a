from pipkeeper.cli import main

raise SystemExit(main())
