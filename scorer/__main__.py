from scorer.cli import main

main()
