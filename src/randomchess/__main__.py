from randomchess.cli import main

main()
