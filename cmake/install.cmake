# Installing (cmake --install build --prefix P) and packages (cpack in the build folder).
#
# Linux: the engine goes to P/games (XQ_INSTALL_ENGINE_DIR), where Debian puts game engines (stockfish,
# fairymax, uci2wb: /usr/games, on a Debian user's PATH), the tools (xqmatch, xqgen, xqtrain, xqbook,
# xqtune: programs for matches and training, not games) to P/bin; the nets and books the executable does
# not embed to P/share/jiangjun (the engine looks for relative names there: src/base/datafile.h), the starter
# tablebases to P/share/jiangjun/tb (tb probe's default; EGTBPath tb finds them), the manual
# page to P/share/man/man6/jiangjun.6, README.md to P/share/doc/jiangjun. `cpack -G DEB` makes
# jiangjun_VERSION_ARCH.deb of that layout under /usr (tests/deb_install.sh installs it with apt).
# Windows (the MinGW build): jiangjun.exe, the nets and books not embedded, README.md and README-Windows.txt
# (how to add the engine to XiangQi Wizard and other GUIs) at the top of the prefix; `cpack -G ZIP` makes
# jiangjun-VERSION-win64.zip of it.
include(GNUInstallDirs)

# The nets and books beside the sources, less the ones built in (XQ_DEFAULT_NET_FILE, XQ_DEFAULT_BOOK_FILE).
file(GLOB xq_data_files ${PROJECT_SOURCE_DIR}/nets/*.nnue ${PROJECT_SOURCE_DIR}/books/*.xqb)
list(REMOVE_ITEM xq_data_files "${XQ_DEFAULT_NET_FILE}" "${XQ_DEFAULT_BOOK_FILE}")

if(WIN32)
  set(xq_engine_dir .)
  set(xq_data_dir .)
  set(xq_doc_dir .)
  configure_file(${PROJECT_SOURCE_DIR}/dist/README-Windows.txt ${CMAKE_BINARY_DIR}/README-Windows.txt
                 @ONLY NEWLINE_STYLE CRLF)
  install(FILES ${CMAKE_BINARY_DIR}/README-Windows.txt DESTINATION .)
else()
  set(XQ_INSTALL_ENGINE_DIR games CACHE STRING "Where the engine is installed, under the prefix (Debian: games)")
  set(xq_engine_dir ${XQ_INSTALL_ENGINE_DIR})
  set(xq_data_dir ${CMAKE_INSTALL_DATADIR}/jiangjun)
  set(xq_doc_dir ${CMAKE_INSTALL_DOCDIR})
  configure_file(${PROJECT_SOURCE_DIR}/dist/jiangjun.6 ${CMAKE_BINARY_DIR}/jiangjun.6 @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/jiangjun.6 DESTINATION ${CMAKE_INSTALL_MANDIR}/man6)
  foreach(tool xqmatch xqgen xqtrain xqbook xqtune)
    if(TARGET ${tool})
      install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    endif()
  endforeach()
endif()
install(TARGETS jiangjun RUNTIME DESTINATION ${xq_engine_dir})
if(xq_data_files)
  install(FILES ${xq_data_files} DESTINATION ${xq_data_dir})
endif()
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${xq_doc_dir})
if(XQ_TB_STARTER) # the starter tablebases: share/jiangjun/tb (Windows: tb beside the engine), where tb probe looks
  install(DIRECTORY ${XQ_TB_STARTER_DIR}/ DESTINATION ${xq_data_dir}/tb FILES_MATCHING PATTERN "*.jjtb")
endif()

set(CPACK_PACKAGE_NAME jiangjun)
set(CPACK_PACKAGE_VENDOR "the Jiangjun developers")
set(CPACK_PACKAGE_CONTACT "the Jiangjun developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "xiangqi (Chinese chess) engine for UCCI, UCI and XBoard GUIs")
set(CPACK_PACKAGE_DESCRIPTION "Jiangjun plays xiangqi (Chinese chess) for graphical interfaces: UCCI\n(XiangQi Wizard), UCI in Pikafish's dialect and CECP (XBoard), with a built-in\nneural-network evaluation and opening book, and the tools xqmatch, xqgen,\nxqtrain, xqbook and xqtune.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_STRIP_FILES ON)
if(WIN32)
  set(CPACK_GENERATOR ZIP)
  set(CPACK_SYSTEM_NAME win64)
  set(CPACK_INCLUDE_TOPLEVEL_DIRECTORY ON)
else()
  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SECTION games)
  set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON) # the libc6 dependency, from dpkg-shlibdeps
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "xboard, uci2wb")
endif()
include(CPack)
