from vendorgen.cli import main

main()
